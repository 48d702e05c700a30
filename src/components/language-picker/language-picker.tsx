/**
 * The language picker: every language by its own name ("日本語", "العربية"), so a pupil finds
 * theirs whatever the screen speaks now. Changing it switches the interface at once and is
 * remembered on this terminal.
 */
import { Trans } from '@lingui/react/macro';
import { useId } from 'react';
import { useLanguage } from '../../i18n/language-context.tsx';
import { isLanguageKey, languages } from '../../../contract/languages.ts';
import { GlobeIcon } from '../icon/icons.tsx';
import styles from './language-picker.module.css';

export function LanguagePicker() {
  const id = useId();
  const { language, options, setLanguage } = useLanguage();
  return (
    <div className={styles.picker}>
      <label htmlFor={id} className={styles.label}>
        <GlobeIcon />
        <Trans>Language</Trans>
      </label>
      <select
        id={id}
        className={`input ${styles.select}`}
        value={language}
        onChange={(event) => {
          if (isLanguageKey(event.target.value)) setLanguage(event.target.value);
        }}
      >
        {options.map((key) => (
          <option key={key} value={key} lang={languages[key].tag.split('-u-')[0]} dir={languages[key].dir}>
            {languages[key].nativeName}
          </option>
        ))}
      </select>
    </div>
  );
}
