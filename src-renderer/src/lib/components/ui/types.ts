// Shared prop types of the ui components.

/** Attributes a Field hands to its control so that label, hint and error are announced with it. */
export interface FieldControlAttrs {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': boolean;
}

/** One choice of a segmented control or select. */
export interface Choice<T extends string | number = string> {
  value: T;
  label: string;
  disabled?: boolean;
  /** Shown as a tooltip or after the label, e.g. why it is disabled. */
  detail?: string;
}

export interface ChoiceGroup<T extends string | number = string> {
  label: string;
  choices: Choice<T>[];
}
