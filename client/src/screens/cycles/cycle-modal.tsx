/**
 * New / edit cycle: name (required), description, one date range (both or neither). While the
 * dates change, the server's date-check (debounced) says whether they overlap another cycle of
 * the project; the message (naming that cycle) shows under the dates and blocks saving, as does
 * an end before the start. A 400's field errors land on their fields.
 *
 * Completed cycles are never edited here: the server refuses every change to them but
 * sort_order, so the menu does not offer "Edit" for them (cycle-logic.ts cycleActions).
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Field, Modal, ModalFooter, TextArea, TextInput } from "../../components/ui";
import { errorMessage, fieldErrors } from "../../lib/api";
import { type Cycle, checkCycleDates, createCycle, updateCycle } from "../../stores/cycles";
import { focusOnMount } from "../workspace/components/focus";
import { dateRangeProblem } from "./cycle-logic";
import { DateRangeInput } from "./date-range-input";

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  slug: string;
  projectId: string;
  /** Edit this cycle; create a new one when absent. */
  cycle?: Cycle | null;
  onSaved?: (cycle: Cycle) => void;
};

const NAME_MAX = 255;

export function CycleModal({ open, onOpenChange, slug, projectId, cycle, onSaved }: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [start, setStart] = useState<string | null>(null);
  const [end, setEnd] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [overlap, setOverlap] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [touchedName, setTouchedName] = useState(false);
  const checkSeq = useRef(0);

  useEffect(() => {
    if (!open) return;
    setName(cycle?.name ?? "");
    setDescription(cycle?.description ?? "");
    setStart(cycle?.start_date ?? null);
    setEnd(cycle?.end_date ?? null);
    setErrors({});
    setFormError(null);
    setOverlap(null);
    setBusy(false);
    setTouchedName(false);
  }, [open, cycle]);

  const cycleId = cycle?.id;
  // The overlap check, 300 ms after the dates settle; a newer check or closing drops the answer.
  useEffect(() => {
    const seq = ++checkSeq.current;
    setOverlap(null);
    if (!open || !start || !end || end < start) {
      setChecking(false);
      return;
    }
    setChecking(true);
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      checkCycleDates(
        slug,
        projectId,
        { start_date: start, end_date: end, ...(cycleId ? { cycle_id: cycleId } : {}) },
        controller.signal,
      )
        .then((answer) => {
          if (seq !== checkSeq.current) return;
          setOverlap(answer.status ? null : answer.error);
        })
        .catch(() => undefined)
        .finally(() => {
          if (seq === checkSeq.current) setChecking(false);
        });
    }, 300);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [open, slug, projectId, cycleId, start, end]);

  const problem = dateRangeProblem(start, end);
  const nameError = errors.name ?? (touchedName && !name.trim() ? t("cycles.modal.nameRequired") : null);
  const datesError =
    errors.start_date ??
    errors.end_date ??
    (problem === "endBeforeStart"
      ? t("cycles.modal.endBeforeStart")
      : problem === "incomplete" && !start
        ? t("cycles.modal.incomplete")
        : overlap);
  const invalid = !name.trim() || problem === "endBeforeStart" || Boolean(overlap);
  // A start without an end is still being picked: a hint, not an error, and it can't be saved.
  const pickingEnd = problem === "incomplete" && Boolean(start);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouchedName(true);
    if (busy || invalid || pickingEnd || checking) return;
    setBusy(true);
    setErrors({});
    setFormError(null);
    const input = { name: name.trim(), description, start_date: start, end_date: end };
    try {
      const saved = cycle
        ? await updateCycle(slug, projectId, cycle.id, input)
        : await createCycle(slug, projectId, input);
      onSaved?.(saved);
      onOpenChange(false);
    } catch (error) {
      const fields = await fieldErrors(error);
      setErrors(fields);
      const message = await errorMessage(error);
      // The overlap message belongs under the dates; other refusals without a field go on top.
      if (!Object.keys(fields).length) {
        if (/overlap/i.test(message)) setOverlap(message);
        else setFormError(message);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={cycle ? t("cycles.modal.editTitle") : t("cycles.modal.createTitle")}
      width={520}
    >
      <form className="stack cy-modal" onSubmit={submit} noValidate>
        {formError ? (
          <p className="field-error cy-form-error" role="alert">
            {formError}
          </p>
        ) : null}
        <TextInput
          ref={focusOnMount}
          label={t("cycles.modal.name")}
          placeholder={t("cycles.modal.namePlaceholder")}
          value={name}
          maxLength={NAME_MAX}
          onChange={(e) => setName(e.target.value)}
          onBlur={() => setTouchedName(true)}
          error={nameError}
          required
          data-testid="cycle-name"
        />
        <TextArea
          label={t("cycles.modal.description")}
          placeholder={t("cycles.modal.descriptionPlaceholder")}
          value={description}
          rows={3}
          onChange={(e) => setDescription(e.target.value)}
          error={errors.description}
        />
        <Field
          label={t("cycles.modal.dates")}
          error={datesError}
          hint={
            pickingEnd ? t("cycles.modal.pickEnd") : checking ? t("cycles.modal.checking") : t("cycles.modal.datesHint")
          }
        >
          {(id, describedBy) => (
            <DateRangeInput
              id={id}
              start={start}
              end={end}
              describedBy={describedBy}
              invalid={Boolean(datesError)}
              onChange={(s, e) => {
                setStart(s);
                setEnd(e);
                setErrors(({ start_date: _s, end_date: _e, ...rest }) => rest);
              }}
            />
          )}
        </Field>
        <ModalFooter>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t("cycles.cancel")}
          </Button>
          <Button type="submit" loading={busy} disabled={invalid || pickingEnd || checking} data-testid="cycle-submit">
            {cycle ? t("cycles.modal.save") : t("cycles.modal.create")}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
