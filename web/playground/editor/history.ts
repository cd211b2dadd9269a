/** Undo and redo of a JSON document: each state is kept as its JSON text, so an undo gives
 * back the exact document (numbers included), and a later change cannot reach a stored state. */
export class UndoHistory<T> {
  private undoStack: string[] = [];
  private redoStack: string[] = [];

  /** `limit`: the most undo steps kept (the oldest go first). */
  constructor(private readonly limit = 200) {}

  get canUndo(): boolean {
    return this.undoStack.length > 0;
  }

  get canRedo(): boolean {
    return this.redoStack.length > 0;
  }

  /** Records `current` before it changes; what was undone can no longer be redone. */
  push(current: T): void {
    this.undoStack.push(JSON.stringify(current));
    if (this.undoStack.length > this.limit) this.undoStack.shift();
    this.redoStack = [];
  }

  /** The state before `current` (which becomes the redo), or null when there is none. */
  undo(current: T): T | null {
    const prev = this.undoStack.pop();
    if (prev === undefined) return null;
    this.redoStack.push(JSON.stringify(current));
    return JSON.parse(prev) as T;
  }

  /** The state undone last (`current` becomes an undo again), or null when there is none. */
  redo(current: T): T | null {
    const next = this.redoStack.pop();
    if (next === undefined) return null;
    this.undoStack.push(JSON.stringify(current));
    return JSON.parse(next) as T;
  }

  clear(): void {
    this.undoStack = [];
    this.redoStack = [];
  }
}
