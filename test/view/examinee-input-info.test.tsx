// @vitest-environment jsdom
/**
 * examinee-input-info: the controlled form (every edit to onChange with all three values), the
 * grade choices, the seed's field messages tied to their fields, the confirmation step with
 * Register and Change, saving, a failed save, and the Japanese catalog.
 */
import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { InputInfoApi } from '../../machines/session/session.connect.ts';
import type { BasicInfoValues } from '../../machines/session/session.types.ts';
import { ExamineeInputInfoScreen } from '../../src/screens/examinee-input-info/examinee-input-info.tsx';
import { renderView } from '../helpers/render-view.tsx';
import { inputInfoApi } from '../helpers/session-fixtures.ts';

const filled: BasicInfoValues = { examinee_name: 'Aiko Tanaka', grade_id: 5, email: 'aiko@example.com' };

const props = inputInfoApi;

/** Holds the values the way the machine does, so typing shows up. */
function Controlled({ api }: { api: InputInfoApi }) {
  const [values, setValues] = useState(api.values);
  return (
    <ExamineeInputInfoScreen
      api={{
        ...api,
        values,
        change: (next) => {
          setValues(next);
          api.change(next);
        },
      }}
    />
  );
}

function describedText(field: HTMLElement): string[] {
  return (field.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean).map((id) => document.getElementById(id)?.textContent ?? '');
}

describe('examinee-input-info, editing', () => {
  it('shows Name, Grade and Email, with Grade 1 to 12 and Other', async () => {
    await renderView(<ExamineeInputInfoScreen api={props()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Your basic information' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Name' }).getAttribute('autocomplete')).toBe('off');
    expect(screen.getByRole('textbox', { name: 'Email' }).getAttribute('type')).toBe('email');
    const grade = screen.getByRole('combobox', { name: 'Grade' });
    const options = within(grade).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Choose your grade',
      ...Array.from({ length: 12 }, (_, i) => `Grade ${i + 1}`),
      'Other',
    ]);
    expect(options.map((o) => o.getAttribute('value'))).toEqual(['', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '99']);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('hands every edit to onChange with all three values', async () => {
    const onChange = vi.fn();
    const { user } = await renderView(<Controlled api={props({ change: onChange })} />);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Aiko');
    expect(onChange).toHaveBeenCalledTimes(4);
    expect(onChange).toHaveBeenLastCalledWith({ examinee_name: 'Aiko', grade_id: null, email: '' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Grade' }), 'Other');
    expect(onChange).toHaveBeenLastCalledWith({ examinee_name: 'Aiko', grade_id: 99, email: '' });
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'a@b.jp');
    expect(onChange).toHaveBeenLastCalledWith({ examinee_name: 'Aiko', grade_id: 99, email: 'a@b.jp' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Grade' }), 'Choose your grade');
    expect(onChange).toHaveBeenLastCalledWith({ examinee_name: 'Aiko', grade_id: null, email: 'a@b.jp' });
  });

  it('shows the values it is given', async () => {
    await renderView(<ExamineeInputInfoScreen api={props({ values: filled })} />);
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('Aiko Tanaka');
    expect((screen.getByRole('combobox', { name: 'Grade' }) as HTMLSelectElement).value).toBe('5');
    expect((screen.getByRole('textbox', { name: 'Email' }) as HTMLInputElement).value).toBe('aiko@example.com');
  });

  it('asks for a review with Next, by button and by Enter', async () => {
    const onReview = vi.fn();
    const { user } = await renderView(<ExamineeInputInfoScreen api={props({ values: filled, review: onReview })} />);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('textbox', { name: 'Email' }));
    await user.keyboard('{Enter}');
    expect(onReview).toHaveBeenCalledTimes(2);
  });

  it('shows "{attribute} is a required field" under each empty field, tied to it, and focuses the first', async () => {
    const onReview = vi.fn();
    const { user, rerender } = await renderView(<ExamineeInputInfoScreen api={props({ review: onReview })} />);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    rerender(<ExamineeInputInfoScreen api={props({ review: onReview, errors: { examinee_name: 'required', grade_id: 'required', email: 'required' } })} />);
    const name = screen.getByRole('textbox', { name: 'Name' });
    const grade = screen.getByRole('combobox', { name: 'Grade' });
    const email = screen.getByRole('textbox', { name: 'Email' });
    for (const field of [name, grade, email]) expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(name)).toEqual(['Name is a required field']);
    expect(describedText(grade)).toEqual(['Grade is a required field']);
    expect(describedText(email)).toEqual(['Email is a required field']);
    expect(document.activeElement).toBe(name);
  });

  it('does not move focus while the pupil types, even when the errors change', async () => {
    const { user, rerender } = await renderView(
      <ExamineeInputInfoScreen api={props({ errors: { examinee_name: 'required', email: 'invalid' } })} />,
    );
    await user.click(screen.getByRole('textbox', { name: 'Email' }));
    rerender(<ExamineeInputInfoScreen api={props({ errors: { email: 'invalid' } })} />);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Email' }));
  });

  it('tells an email that is not valid, and a name that is too long', async () => {
    await renderView(<ExamineeInputInfoScreen api={props({ values: filled, errors: { email: 'invalid', examinee_name: 'invalid' } })} />);
    expect(describedText(screen.getByRole('textbox', { name: 'Email' }))).toEqual(['Please enter a valid Email address.']);
    expect(describedText(screen.getByRole('textbox', { name: 'Name' }))).toEqual(['This is too long. Please make it shorter.']);
    expect(screen.getByRole('combobox', { name: 'Grade' }).getAttribute('aria-invalid')).toBeNull();
  });
});

describe('examinee-input-info, confirming', () => {
  it('shows the values and asks to register, warning they cannot be changed', async () => {
    await renderView(<ExamineeInputInfoScreen api={props({ step: 'confirming', values: { ...filled, grade_id: 99 } })} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Check your details' })).toBeTruthy();
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toEqual(['Name', 'Grade', 'Email']);
    expect(screen.getAllByRole('definition').map((d) => d.textContent)).toEqual(['Aiko Tanaka', 'Other', 'aiko@example.com']);
    expect(screen.getByText('Register with these details? You cannot change them later.')).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('moves focus to the heading when the step changes', async () => {
    const { rerender } = await renderView(<ExamineeInputInfoScreen api={props({ values: filled })} />);
    rerender(<ExamineeInputInfoScreen api={props({ step: 'confirming', values: filled })} />);
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Check your details' }));
    rerender(<ExamineeInputInfoScreen api={props({ step: 'saving', values: filled })} />);
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Check your details' }));
    rerender(<ExamineeInputInfoScreen api={props({ step: 'editing', values: filled })} />);
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Your basic information' }));
  });

  it('registers with Register and goes back with Change', async () => {
    const onConfirm = vi.fn();
    const onBack = vi.fn();
    const { user } = await renderView(<ExamineeInputInfoScreen api={props({ step: 'confirming', values: filled, confirm: onConfirm, edit: onBack })} />);
    expect(screen.getAllByRole('definition')[1]?.textContent).toBe('Grade 5');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    await user.click(screen.getByRole('button', { name: 'Change' }));
    expect(onBack).toHaveBeenCalledOnce();
  });

  it('waits while saving: neither button acts again', async () => {
    const onConfirm = vi.fn();
    const onBack = vi.fn();
    const { user } = await renderView(<ExamineeInputInfoScreen api={props({ step: 'saving', values: filled, confirm: onConfirm, edit: onBack })} />);
    const register = screen.getByRole('button', { name: 'Registering…' });
    expect(register.getAttribute('aria-busy')).toBe('true');
    await user.click(register);
    await user.click(screen.getByRole('button', { name: 'Change' }));
    expect(onConfirm).not.toHaveBeenCalled();
    expect(onBack).not.toHaveBeenCalled();
  });

  it('tells a failed save as an alert', async () => {
    await renderView(<ExamineeInputInfoScreen api={props({ step: 'confirming', values: filled, failure: 'ER_DUP_ENTRY' })} />);
    expect(screen.getByRole('alert').textContent).toBe('This has already been registered.');
    expect(screen.getByRole('button', { name: 'Register' })).toBeTruthy();
  });
});

describe('examinee-input-info in Japanese', () => {
  it('renders from the ja catalog', async () => {
    await renderView(<ExamineeInputInfoScreen api={props({ errors: { email: 'required' } })} />, { language: 'ja' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('あなたの基本情報');
    expect(screen.getByText('メールアドレスを入力してください')).toBeTruthy();
    const options = within(screen.getByRole('combobox', { name: '学年' })).getAllByRole('option');
    expect(options[1]?.textContent).toBe('1年生');
    expect(options[13]?.textContent).toBe('その他');
  });
});
