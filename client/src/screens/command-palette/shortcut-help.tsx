/**
 * The shortcut help (`?`, or the palette's "Keyboard shortcuts"): every shortcut of
 * SHORTCUT_GROUPS with where it works, filterable by what it does or its key.
 */
import { Fragment, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Modal } from "../../components/ui";
import { keyLabel, SHORTCUT_GROUPS, type Shortcut } from "./shortcuts";
import "./command-palette.css";

type Props = { open: boolean; onOpenChange: (open: boolean) => void };

export function ShortcutHelp({ open, onOpenChange }: Props) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState("");
  const q = filter.trim().toLowerCase();
  const groups = useMemo(
    () =>
      SHORTCUT_GROUPS.map((group) => ({
        title: t(group.title),
        shortcuts: group.shortcuts.filter((s) => {
          if (!q) return true;
          const text = `${t(s.does)} ${s.where ? t(s.where) : ""} ${s.keys.flat().join(" ")}`.toLowerCase();
          return text.includes(q);
        }),
      })).filter((g) => g.shortcuts.length > 0),
    [q, t],
  );

  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) setFilter("");
      }}
      title={t("shortcuts.title")}
      className="shortcut-modal"
    >
      <input
        type="search"
        className="input shortcut-search"
        placeholder={t("shortcuts.filter")}
        aria-label={t("shortcuts.filter")}
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      {groups.length === 0 ? (
        <p className="muted">{t("shortcuts.none", { query: filter.trim() })}</p>
      ) : (
        <div className="shortcut-help">
          {groups.map((group) => (
            <section key={group.title} className="shortcut-group" aria-label={group.title}>
              <h3>{group.title}</h3>
              {group.shortcuts.map((s) => (
                <ShortcutRow key={`${s.does}-${s.where ?? ""}`} shortcut={s} />
              ))}
            </section>
          ))}
        </div>
      )}
    </Modal>
  );
}

function ShortcutRow({ shortcut }: { shortcut: Shortcut }) {
  const { t } = useTranslation();
  return (
    <div className="shortcut-row">
      <span className="shortcut-does">
        <span>{t(shortcut.does)}</span>
        {shortcut.where ? <span className="shortcut-where">{t(shortcut.where)}</span> : null}
      </span>
      <span className="shortcut-keys">
        {shortcut.keys.map((combo, i) => (
          <Fragment key={combo.join("+")}>
            {i > 0 ? <span>{t("shortcuts.or")}</span> : null}
            {combo.map((key) => (
              <kbd key={key}>{keyLabel(key)}</kbd>
            ))}
          </Fragment>
        ))}
      </span>
    </div>
  );
}
