import { createFileRoute } from '@tanstack/react-router';
import { lazy } from 'react';

// The console comes in one chunk of its own (-console.tsx), loaded with its first page. Its pages (/operator,
// /operator/traders, /operator/traders/alice, /operator/reviews, /operator/audit) are one route: each route is an
// entry of the route tree every first page downloads, /login's included (bench/bundle-size.ts).
const ConsolePage = lazy(() => import('./-console.tsx').then((console) => ({ default: console.ConsolePage })));

export const Route = createFileRoute('/_app/operator/{-$section}/{-$username}')({ component: ConsolePage });
