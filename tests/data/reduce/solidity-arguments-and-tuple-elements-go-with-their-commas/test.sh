#!/bin/sh
export LC_ALL=C
# The input is OpenZeppelin Contracts 4.9.6's own code (utils/Address.sol,
# MIT, npm @openzeppelin/contracts). Arguments go with their commas, a
# tuple declaration keeps its empty place, a string becomes what matters
# of it, parameters and modifiers go, bodies empty out.
grep -q 'function sendValue' "$1" && grep -q 'function functionCallWithValue' "$1" &&
  grep -q 'returndata, errorMessage)' "$1" && grep -q '(bool success,' "$1" &&
  grep -q 'insufficient' "$1"
