#!/bin/sh
export LC_ALL=C
# A ZeroDivisionError raised in a method `mean`, in a file that still runs:
# bodies that lose every statement become `pass`, a return type goes with
# its `->`, and the lines that stay keep their indentation.
python3 "$1" >out 2>&1
grep -q 'in mean$' out && grep -q '^ZeroDivisionError: division by zero$' out
