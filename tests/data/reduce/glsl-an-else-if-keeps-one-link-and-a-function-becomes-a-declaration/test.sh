#!/bin/sh
# OpenMW 0.47's sky shader s360_fragment.glsl, cut down (GPL-3+, Debian's
# openmw-data): glslangValidator must still accept it, and it must still
# call cylindricalCoords where mapping is 1 and write gl_FragData. The
# `else if` chain keeps one link, the function becomes a declaration (its
# body is not needed), a name shortens.
export LC_ALL=C
glslangValidator -S frag "$1" >./gl.log 2>&1 || exit 1
grep -q ERROR ./gl.log && exit 1
grep -q "mapping == 1" "$1" && grep -q "cylindricalCoords(uv)" "$1" && grep -q "gl_FragData\[0\] = textureCube" "$1"
