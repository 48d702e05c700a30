/**
 * The certificate number: derived from the schedule history id (one sitting, one certificate),
 * so the same certificate printed twice carries the same number. "GR-" (Gradus), the exam
 * year, the id padded to eight digits, and a check digit (Luhn mod 10) against typing errors.
 */
export function certificateNumber(scheduleHistoryId: number, examDate: string): string {
  const year = new Date(examDate).getUTCFullYear();
  const digits = String(scheduleHistoryId).padStart(8, '0');
  return `GR-${year}-${digits}-${luhn(`${year}${digits}`)}`;
}

function luhn(digits: string): number {
  let sum = 0;
  [...digits].reverse().forEach((char, i) => {
    let d = Number(char);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  });
  return (10 - (sum % 10)) % 10;
}
