import { defineConfig, defineRecipe } from '@pandacss/dev';

/** The product's button variants and sizes (docs/web-app.md "Fixed figures"). */
const button = defineRecipe({
  className: 'button',
  description: 'Every button and button-styled link of the product',
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: '2',
    fontWeight: 'semibold',
    borderRadius: 'md',
    borderWidth: '1px',
    borderColor: 'transparent',
    cursor: 'pointer',
    whiteSpace: 'nowrap',
    textDecoration: 'none',
    transition: 'background 0.15s, color 0.15s, border-color 0.15s',
    _disabled: { opacity: 0.5, cursor: 'not-allowed' },
    _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
  },
  variants: {
    variant: {
      default: { bg: 'accent', color: 'accent.fg', _hover: { bg: 'accent.hover' } },
      destructive: { bg: 'red.600', color: 'white', _hover: { opacity: 0.9 } },
      outline: { bg: 'transparent', borderColor: 'border', color: 'fg', _hover: { bg: 'bg.muted' } },
      secondary: { bg: 'bg.muted', color: 'fg', _hover: { bg: 'bg.subtle' } },
      ghost: { bg: 'transparent', color: 'fg', _hover: { bg: 'bg.muted' } },
      link: { bg: 'transparent', color: 'accent', px: '0', _hover: { textDecoration: 'underline' } },
      // Fixed shades, not the buy/sell/danger tokens (text colours, lighter in dark): white on them reads at 4.5:1 or
      // more in both themes (tests/e2e/accessibility.test.ts).
      buy: { bg: 'emerald.700', color: 'white', _hover: { opacity: 0.9 } },
      sell: { bg: 'rose.600', color: 'white', _hover: { opacity: 0.9 } },
      hero: { bgGradient: 'to-r', gradientFrom: 'accent', gradientTo: 'premium', color: 'white', _hover: { opacity: 0.92 } },
      premium: { bg: 'premium', color: 'white', _hover: { opacity: 0.9 } },
    },
    size: {
      default: { h: '10', px: '4', fontSize: 'sm' },
      sm: { h: '8', px: '3', fontSize: 'xs' },
      lg: { h: '11', px: '6', fontSize: 'md' },
      xl: { h: '12', px: '8', fontSize: 'lg' },
      icon: { h: '10', w: '10', px: '0' },
    },
  },
  defaultVariants: { variant: 'default', size: 'default' },
});

export default defineConfig({
  preflight: true,
  jsxFramework: 'react',
  include: ['./src/**/*.{ts,tsx}'],
  exclude: [],
  outdir: 'styled-system',
  // The theme follows the operating system's preference and changes live with it.
  conditions: { extend: { dark: '@media (prefers-color-scheme: dark)' } },
  globalCss: {
    'html, body': {
      bg: 'bg.canvas',
      color: 'fg',
      fontFamily: 'body',
      minHeight: '100%',
      colorScheme: 'light dark',
      WebkitFontSmoothing: 'antialiased',
    },
  },
  theme: {
    extend: {
      tokens: {
        fonts: {
          body: { value: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif" },
          mono: { value: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" },
        },
      },
      semanticTokens: {
        colors: {
          fg: {
            DEFAULT: { value: { base: '{colors.slate.900}', _dark: '{colors.slate.100}' } },
            muted: { value: { base: '{colors.slate.600}', _dark: '{colors.slate.400}' } },
            subtle: { value: { base: '{colors.slate.500}', _dark: '{colors.slate.500}' } },
          },
          bg: {
            canvas: { value: { base: '{colors.slate.50}', _dark: '{colors.slate.950}' } },
            surface: { value: { base: '{colors.white}', _dark: '{colors.slate.900}' } },
            muted: { value: { base: '{colors.slate.100}', _dark: '{colors.slate.800}' } },
            subtle: { value: { base: '{colors.slate.200}', _dark: '{colors.slate.700}' } },
            overlay: { value: { base: 'rgba(15,23,42,0.4)', _dark: 'rgba(0,0,0,0.6)' } },
          },
          border: { value: { base: '{colors.slate.200}', _dark: '{colors.slate.700}' } },
          accent: {
            DEFAULT: { value: { base: '{colors.indigo.600}', _dark: '{colors.indigo.400}' } },
            hover: { value: { base: '{colors.indigo.700}', _dark: '{colors.indigo.300}' } },
            fg: { value: { base: '{colors.white}', _dark: '{colors.slate.950}' } },
            subtle: { value: { base: '{colors.indigo.50}', _dark: '{colors.indigo.950}' } },
          },
          // Text colours, as success, warning and danger: 4.5:1 or more on the surface and the muted background of
          // either theme (tests/e2e/accessibility.test.ts scans every page in both).
          buy: { value: { base: '{colors.emerald.700}', _dark: '{colors.emerald.500}' } },
          sell: { value: { base: '{colors.rose.700}', _dark: '{colors.rose.400}' } },
          success: {
            DEFAULT: { value: { base: '{colors.emerald.700}', _dark: '{colors.emerald.300}' } },
            subtle: { value: { base: '{colors.emerald.100}', _dark: '{colors.emerald.950}' } },
          },
          warning: {
            DEFAULT: { value: { base: '{colors.amber.700}', _dark: '{colors.amber.300}' } },
            subtle: { value: { base: '{colors.amber.100}', _dark: '{colors.amber.950}' } },
          },
          danger: {
            DEFAULT: { value: { base: '{colors.red.700}', _dark: '{colors.red.400}' } },
            subtle: { value: { base: '{colors.red.100}', _dark: '{colors.red.950}' } },
          },
          premium: { value: { base: '{colors.violet.600}', _dark: '{colors.violet.500}' } },
        },
      },
      recipes: { button },
    },
  },
});
