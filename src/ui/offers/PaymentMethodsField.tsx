import { SelectField, type SelectOption } from '../primitives/SelectField.tsx';

/** The payment methods, several at once: the offer form's and Browse Offers' filter. */
export function PaymentMethodsField({
  placeholder,
  methods,
  value,
  onValueChange,
}: {
  placeholder: string;
  methods: SelectOption[];
  value: string[];
  onValueChange: (value: string[]) => void;
}) {
  return (
    <SelectField
      label="Payment methods"
      name="payment_method"
      multiple
      placeholder={placeholder}
      options={methods}
      value={value}
      onValueChange={onValueChange}
    />
  );
}
