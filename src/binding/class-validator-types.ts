/** class-validator's metadata store, as `getMetadataStorage()` returns it. */
export type ValidationStorage = ReturnType<(typeof import('class-validator'))['getMetadataStorage']>;

/** One rule of one property, as class-validator records it. */
export type ValidationRule = ReturnType<ValidationStorage['getTargetValidationMetadatas']>[number];

/** The class that runs a rule (`validate`, `defaultMessage`), as class-validator records it. */
export type RuleConstraint = ReturnType<ValidationStorage['getTargetValidatorConstraints']>[number];

/** class-validator's kinds of metadata, as it records them. */
export const RuleKind = {
  custom: 'customValidation',
  nested: 'nestedValidation',
  promise: 'promiseValidation',
  conditional: 'conditionalValidation',
  whitelist: 'whitelistValidation',
  defined: 'isDefined',
} as const;
