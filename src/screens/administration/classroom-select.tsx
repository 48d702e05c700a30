/**
 * The "Classroom" choice of the console's forms (finding pupils, the login slips and results):
 * every classroom, or one of the school's. The value is the classroom's id as text, '' for every
 * classroom.
 */
import { Trans } from '@lingui/react/macro';
import { useId } from 'react';

export function ClassroomSelect({ rooms, value, onChange }: { rooms: readonly { id: number; name: string }[]; value: string; onChange(value: string): void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id} className="field-label"><Trans>Classroom</Trans></label>
      <select id={id} className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value=""><Trans>Every classroom</Trans></option>
        {rooms.map((room) => (
          <option key={room.id} value={String(room.id)}>{room.name}</option>
        ))}
      </select>
    </div>
  );
}
