import type { ReactNode, SVGProps } from 'react';

/** Small inline icons (stroke follows `currentColor`), so nothing is loaded from other hosts. */
const base = (props: SVGProps<SVGSVGElement>) => ({
  width: 18,
  height: 18,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round' as const,
  strokeLinejoin: 'round' as const,
  'aria-hidden': true,
  ...props,
});

/** An icon component: `shapes` drawn in the icons' stroke style, its props given to the <svg> (a size, a class). */
const strokeIcon = (shapes: ReactNode) =>
  function StrokeIcon(props: SVGProps<SVGSVGElement>) {
    return <svg {...base(props)}>{shapes}</svg>;
  };

export const EyeIcon = strokeIcon(
  <>
    <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
    <circle cx="12" cy="12" r="3" />
  </>,
);
export const EyeOffIcon = strokeIcon(
  <>
    <path d="M10.7 5.1A10.4 10.4 0 0 1 12 5c6.5 0 10 7 10 7a17.6 17.6 0 0 1-2.2 3.2M6.6 6.6A17.3 17.3 0 0 0 2 12s3.5 7 10 7a9.7 9.7 0 0 0 5.4-1.6" />
    <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2M2 2l20 20" />
  </>,
);
export const MenuIcon = strokeIcon(<path d="M4 6h16M4 12h16M4 18h16" />);
export const CloseIcon = strokeIcon(<path d="M18 6 6 18M6 6l12 12" />);
export const WalletIcon = strokeIcon(
  <>
    <path d="M3 7a2 2 0 0 1 2-2h13v4" />
    <path d="M3 7v11a2 2 0 0 0 2 2h15V9H5a2 2 0 0 1-2-2Z" />
    <circle cx="16" cy="14.5" r="1" />
  </>,
);
export const TagIcon = strokeIcon(
  <>
    <path d="M20.6 13.4 13.4 20.6a2 2 0 0 1-2.8 0L3 13V3h10l7.6 7.6a2 2 0 0 1 0 2.8Z" />
    <circle cx="7.5" cy="7.5" r="1.5" />
  </>,
);
export const CheckIcon = strokeIcon(<path d="M20 6 9 17l-5-5" />);
export const ChatIcon = strokeIcon(<path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2Z" />);
export const ShieldIcon = strokeIcon(<path d="M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10Z" />);
export const ArrowLeftIcon = strokeIcon(<path d="M19 12H5M12 19l-7-7 7-7" />);
export const ArrowUpIcon = strokeIcon(<path d="M12 19V5M5 12l7-7 7 7" />);
export const ArrowDownIcon = strokeIcon(<path d="M12 5v14M19 12l-7 7-7-7" />);
export const ChevronDownIcon = strokeIcon(<path d="m6 9 6 6 6-6" />);
export const ClockIcon = strokeIcon(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </>,
);
