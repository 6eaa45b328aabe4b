import { addDays, format } from "date-fns";
import { AlarmClock } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, DateInput, Field, Modal, ModalFooter, Select } from "../../components/ui";

/** The spec's snooze choices (product-domain §4), in days. */
const PRESETS = [
  { key: "oneDay", days: 1 },
  { key: "threeDays", days: 3 },
  { key: "fiveDays", days: 5 },
  { key: "oneWeek", days: 7 },
  { key: "twoWeeks", days: 14 },
] as const;

/** 00:00, 00:30, … 23:30. */
const SLOTS = Array.from(
  { length: 48 },
  (_, i) => `${String(Math.floor(i / 2)).padStart(2, "0")}:${i % 2 ? "30" : "00"}`,
);

/** The snooze button of a notification row: presets, a custom date and half-hour slot, or wake up. */
export function SnoozeMenu({ snoozed, onSnooze }: { snoozed: boolean; onSnooze: (until: Date | null) => void }) {
  const { t } = useTranslation();
  const [custom, setCustom] = useState(false);
  return (
    <>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger asChild>
          <button
            type="button"
            className="notif-action"
            aria-label={t("notifications.snooze.label")}
            title={t("notifications.snooze.label")}
          >
            <AlarmClock size={14} />
          </button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu-content" align="end" sideOffset={4}>
            <DropdownMenu.Label className="menu-label">{t("notifications.snooze.title")}</DropdownMenu.Label>
            {PRESETS.map((p) => (
              <DropdownMenu.Item
                key={p.key}
                className="menu-item"
                onSelect={() => onSnooze(addDays(new Date(), p.days))}
              >
                {t(`notifications.snooze.${p.key}`)}
              </DropdownMenu.Item>
            ))}
            <DropdownMenu.Item className="menu-item" onSelect={() => setCustom(true)}>
              {t("notifications.snooze.custom")}
            </DropdownMenu.Item>
            {snoozed ? (
              <>
                <DropdownMenu.Separator className="menu-separator" />
                <DropdownMenu.Item className="menu-item" onSelect={() => onSnooze(null)}>
                  {t("notifications.snooze.unsnooze")}
                </DropdownMenu.Item>
              </>
            ) : null}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {custom ? (
        <CustomSnooze
          onClose={() => setCustom(false)}
          onSnooze={(until) => {
            setCustom(false);
            onSnooze(until);
          }}
        />
      ) : null}
    </>
  );
}

function CustomSnooze({ onClose, onSnooze }: { onClose: () => void; onSnooze: (until: Date) => void }) {
  const { t } = useTranslation();
  const tomorrow = addDays(new Date(), 1);
  const [date, setDate] = useState(format(tomorrow, "yyyy-MM-dd"));
  const [time, setTime] = useState("09:00");
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const until = new Date(`${date}T${time}:00`);
    if (Number.isNaN(until.getTime()) || until.getTime() <= Date.now()) {
      setError(t("notifications.snooze.pastError"));
      return;
    }
    onSnooze(until);
  }

  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={t("notifications.snooze.customTitle")} width={400}>
      <form onSubmit={submit} className="notif-snooze-form">
        <Field label={t("notifications.snooze.date")} error={error ?? undefined}>
          {(id, describedBy) => (
            <DateInput
              id={id}
              labelled
              label={t("notifications.snooze.date")}
              aria-describedby={describedBy}
              clearable={false}
              value={date}
              min={format(new Date(), "yyyy-MM-dd")}
              onChange={(day) => {
                if (day) setDate(day);
                setError(null);
              }}
            />
          )}
        </Field>
        <Field label={t("notifications.snooze.time")}>
          {(id) => (
            <Select
              id={id}
              labelled
              label={t("notifications.snooze.time")}
              value={time}
              searchable={false}
              onValueChange={(slot) => {
                setTime(slot);
                setError(null);
              }}
              options={SLOTS.map((slot) => ({ value: slot, label: slot }))}
            />
          )}
        </Field>
        <ModalFooter>
          <Button variant="secondary" onClick={onClose}>
            {t("notifications.cancel")}
          </Button>
          <Button type="submit">{t("notifications.snooze.submit")}</Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
