/**
 * Phone numbers are personal data: text that vendesk keeps for support (the service's recorded
 * answers) shows only their last two digits. Nigerian mobile numbers are recognised in every form
 * the service or a person writes them — `08031234567`, `2348031234567`, `+2348031234567`,
 * `8031234567`, and with spaces or dashes (`+234 803 123 4567`) — and only as whole numbers, so
 * references, timestamps and amounts are left alone.
 */
const PHONE = /(?<![\w+])(?:\+?234[\s-]?|0)?[789][01]\d(?:[\s-]?\d){7}(?![\w])/g;

export function redactPhoneNumbers(text: string): string {
  return text.replace(PHONE, (whole) => {
    const digits = whole.replace(/\D/g, '');
    return `[phone …${digits.slice(-2)}]`;
  });
}
