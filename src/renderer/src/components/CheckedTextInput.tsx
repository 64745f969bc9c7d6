import { TextInput, type TextInputProps } from '@mantine/core';

/**
 * A text field checked as it is typed (an address, a server): the check's problem in red under
 * it, else what the check noticed (a warning, what it will connect to), else the field's hint.
 */
export function CheckedTextInput({
  value,
  onValue,
  problem,
  note,
  hint,
  ...rest
}: Omit<TextInputProps, 'value' | 'onChange' | 'error' | 'description'> & {
  value: string;
  onValue: (value: string) => void;
  problem: string | null | undefined;
  note?: string | null;
  hint: string;
}) {
  return <TextInput {...rest} value={value} onChange={(e) => onValue(e.currentTarget.value)} error={problem || undefined} description={(!problem && note) || hint} />;
}
