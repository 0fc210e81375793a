import { Link, type LinkProps } from '@tanstack/react-router';
import type { ButtonHTMLAttributes } from 'react';
import { cx } from 'styled-system/css';
import { button, type ButtonVariantProps } from 'styled-system/recipes';

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & ButtonVariantProps;

export function Button({ variant, size, className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={cx(button({ variant, size }), className)} {...props} />;
}

/** A router link that looks like a button of the given variant. */
export function ButtonLink({
  variant,
  size,
  className,
  ...props
}: LinkProps & ButtonVariantProps & { className?: string; children?: React.ReactNode }) {
  return <Link className={cx(button({ variant, size }), className)} {...props} />;
}
