/**
 * A labelled select of a form read on submit: a first option that means "none" (value ""), then
 * one option per named record. The export and import forms pick variants, projects and statuses
 * this way.
 */
export function SelectField(props: {
  label: string;
  name: string;
  emptyLabel: string;
  options: readonly { id: string; name: string }[];
}) {
  return (
    <label>
      {props.label}
      <select name={props.name} defaultValue="">
        <option value="">{props.emptyLabel}</option>
        {props.options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}
