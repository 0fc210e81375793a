import { Portal } from '@ark-ui/react/portal';
import { Select, createListCollection } from '@ark-ui/react/select';
import { useMemo } from 'react';
import { css, cx } from 'styled-system/css';
import { floatingItem, floatingPanel } from './looks.ts';
import { CheckIcon } from './icons.tsx';
import { fieldStyles } from './TextField.tsx';

export type SelectOption = { value: string; label: string; image?: string; hint?: string };

const trigger = css({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: '2',
  textAlign: 'left',
  cursor: 'pointer',
  overflow: 'hidden',
  '& [data-part=value-text]': { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  '& [data-part=value-text][data-placeholder]': { color: 'fg.subtle' },
});
const content = cx(floatingPanel, css({ p: '1', maxH: '72', overflowY: 'auto', zIndex: 30, minW: 'var(--reference-width)' }));
const item = cx(floatingItem, css({ alignItems: 'center', gap: '2', '&[data-state=checked]': { fontWeight: 'semibold' } }));
const itemHint = css({ color: 'fg.muted', ml: 'auto', fontSize: 'xs' });
const chevron = css({ color: 'fg.muted', flexShrink: 0 });

export type SelectFieldProps = {
  label: string;
  name: string;
  options: readonly SelectOption[];
  value: string[];
  onValueChange: (value: string[]) => void;
  placeholder: string;
  multiple?: boolean;
  disabled?: boolean;
  className?: string;
  /**
   * Inside a modal dialog the list must stay in the dialog's tree: a modal hides everything outside
   * it from pointer and screen reader, a portalled list included.
   */
  inDialog?: boolean;
};

/** A labelled, keyboard-usable select (Ark UI); `multiple` for the payment method choices. */
export function SelectField({ label, name, options, value, onValueChange, placeholder, multiple, disabled, className, inDialog }: SelectFieldProps) {
  const collection = useMemo(
    () => createListCollection({ items: options, itemToString: (option) => option.label, itemToValue: (option) => option.value }),
    [options],
  );
  return (
    <Select.Root
      // The list is drawn when it first opens: drawn with the page, every option of every select (Browse Offers
      // has four) was part of the page's first render and commit
      // (bench/README.md "Browse Offers' first visit and the permission read").
      lazyMount
      collection={collection}
      value={value}
      onValueChange={(details) => onValueChange(details.value)}
      multiple={multiple}
      disabled={disabled}
      name={name}
      className={cx(fieldStyles.root, className)}
      positioning={{ sameWidth: false, fitViewport: true, strategy: inDialog ? 'fixed' : 'absolute' }}
    >
      <Select.Label className={fieldStyles.label}>{label}</Select.Label>
      <Select.Control>
        <Select.Trigger className={cx(fieldStyles.input, trigger)}>
          <Select.ValueText placeholder={placeholder} />
          <svg className={chevron} width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden>
            <path d="m6 9 6 6 6-6" />
          </svg>
        </Select.Trigger>
      </Select.Control>
      <Portal disabled={inDialog}>
        <Select.Positioner>
          <Select.Content className={content}>
            {collection.items.map((option) => (
              <Select.Item key={option.value} item={option} className={item}>
                {option.image ? <img src={option.image} alt="" width={20} height={20} /> : null}
                <Select.ItemText>{option.label}</Select.ItemText>
                {option.hint ? <span className={itemHint}>{option.hint}</span> : null}
                <Select.ItemIndicator>
                  <CheckIcon width={14} height={14} />
                </Select.ItemIndicator>
              </Select.Item>
            ))}
          </Select.Content>
        </Select.Positioner>
      </Portal>
      <Select.HiddenSelect />
    </Select.Root>
  );
}

export type SingleSelectFieldProps = Omit<SelectFieldProps, 'value' | 'onValueChange' | 'multiple'> & {
  value: string;
  onValueChange: (value: string) => void;
};

/**
 * A select of one choice whose value is a string: the placeholder shows while the value is none of the options
 * (blank, or their list not here yet), and a choice taken back reports ''.
 */
export function SingleSelectField({ value, onValueChange, ...select }: SingleSelectFieldProps) {
  const chosen = select.options.some((option) => option.value === value) ? [value] : [];
  return <SelectField {...select} value={chosen} onValueChange={([next]) => onValueChange(next ?? '')} />;
}

/**
 * A filter of one choice or none: "All …" (`allLabel`: not `all`, which Panda would read as the CSS property) is the first choice, the value '', and what shows while nothing is
 * chosen.
 */
export function FilterSelectField({ allLabel, options, ...select }: Omit<SingleSelectFieldProps, 'placeholder'> & { allLabel: string }) {
  const withAll = useMemo(() => [{ value: '', label: allLabel }, ...options], [allLabel, options]);
  return <SingleSelectField {...select} placeholder={allLabel} options={withAll} />;
}
