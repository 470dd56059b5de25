#!/bin/sh
export LC_ALL=C
# The input is made of rxjs 7.8.1's own code (src/internal/types.ts and
# util/args.ts, Apache-2.0). An interface keeps one member, which loses its
# `;` and whose function type becomes `any`; a union keeps one type
# without its `|`; a parameter goes with its comma, types with their `:`.
grep -q '^export interface .*{' "$1" && grep -q 'complete: ' "$1" &&
  grep -q '^export type .*= .*ErrorNotification' "$1" &&
  grep -q 'export function popNumber(.*defaultValue' "$1" && grep -q 'pop()!' "$1"
