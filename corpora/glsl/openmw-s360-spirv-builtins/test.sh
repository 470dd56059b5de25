#!/bin/sh
# hdd oracle: glslang 12 (Debian's glslang-tools) accepts the fragment
# shader as OpenGL GLSL, and its OpenGL SPIR-V target (-G) fails on its own
# built-in declarations ("INTERNAL ERROR: Unable to parse built-ins",
# `double` in profile none) instead of giving a diagnostic about the shader.
# Contract: candidate = last argument; cwd = private temp dir;
# exit 0 = interesting. Prints nothing; writes only into cwd.
export LC_ALL=C
for f; do :; done
[ -n "$f" ] && [ -f "$f" ] || exit 2
case "$(glslangValidator --version 2>/dev/null)" in *"Glslang Version: 11:12.0.0"*) ;; *) exit 2 ;; esac
# the shader compiles and links as OpenGL GLSL: exit 0 and no error
timeout 60 glslangValidator -S frag "$f" >./hdd-gl.log 2>&1 || exit 1
grep -q 'ERROR' ./hdd-gl.log && exit 1
# OpenGL SPIR-V: glslang fails on its built-ins, not on the shader
timeout 60 glslangValidator -G -S frag -o ./hdd.spv "$f" >./hdd-spv.log 2>&1
grep -q '^INTERNAL ERROR: Unable to parse built-ins$' ./hdd-spv.log
