export interface Observer<T> {
  next: (value: T) => void;
  error: (err: any) => void;
  complete: () => void;
}

export type ObservableNotification<T> = NextNotification<T> | ErrorNotification | CompleteNotification;

function last<T>(arr: T[]): T | undefined {
  return arr[arr.length - 1];
}

export function popNumber(args: any[], defaultValue: number): number {
  return typeof last(args) === 'number' ? args.pop()! : defaultValue;
}
