/**
 * The login slips of a small test period, as GET /admin/schedules/:code/slips answers them: pupils
 * in Latin, Arabic and Japanese script, each slip in the pupil's language.
 */
import * as v from 'valibot';
import { LoginSlipsResponseSchema, type LoginSlipsResponse } from '../../contract/exports.ts';

export function loginSlipsFixture(): LoginSlipsResponse {
  return v.parse(LoginSlipsResponseSchema, {
    school: { code: 'SAKURA', name: 'Sakura Primary' },
    schedule: { code: 'TP-2026', name: 'Spring test', starts_at: '2026-03-15T00:00:00.000Z', ends_at: '2026-03-20T00:00:00.000Z' },
    venue: { id: 3, name: 'Room 1' },
    login_url: 'https://gradus.example.org/login-code',
    slips: [
      { name: 'Ana Souza', class_name: '6A', classroom: 'Room 1', login_code: 'AC3E-F4GH-J6KM', locale: 'en' },
      { name: 'أمينة الحسن', class_name: '6A', classroom: 'Room 1', login_code: 'BD4F-G5HJ-K7LN', locale: 'ar' },
      { name: '田中 愛子', class_name: '6B', classroom: 'Room 1', login_code: 'CE5G-H6JK-L8MP', locale: 'ja' },
    ],
    server_time: '2026-03-01T09:00:00.000Z',
  });
}
