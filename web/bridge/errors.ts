/** Every failure of the Limber API is a LimberError: a stable code (the C
 * lb_result name, e.g. `LB_ERR_NOT_FINITE`) and a message naming the entity,
 * component and field involved. The world is unchanged after one is thrown. */
export class LimberError extends Error {
  readonly code: string;
  readonly entity?: number;
  readonly component?: string;
  readonly field?: string;

  constructor(code: string, message: string, where: { entity?: number; component?: string; field?: string } = {}) {
    super(message);
    this.name = 'LimberError';
    this.code = code;
    this.entity = where.entity;
    this.component = where.component;
    this.field = where.field ?? /field '([A-Za-z0-9_]+)'/.exec(message)?.[1];
  }
}
