#!/bin/sh
# hdd oracle: javac (OpenJDK 17) -Xlint:static warns that a static method is
# called through an expression (`anim.sleep(500)` on a Thread), and the
# candidate compiles otherwise (javac exits 0 only without errors).
# The JVM flags only make each call start faster. Contract: candidate =
# last argument; cwd = private temp dir; exit 0 = interesting. Prints
# nothing; writes only ./classes and ./javac.log.
for f; do :; done
[ -n "$f" ] && [ -f "$f" ] || exit 2
# OpenJDK 17's javac (Debian's openjdk-17-jdk-headless), found by its path:
# `javac -version` would start a JVM of its own on every call.
case "$(readlink -f "$(command -v javac)")" in
  */java-17-openjdk*/bin/javac) ;;
  *) exit 2 ;;
esac
mkdir -p classes || exit 1
LC_ALL=C javac -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -proc:none -implicit:none -Xlint:static -Xlint:-options -encoding UTF-8 -d classes "$f" >javac.log 2>&1 || exit 1
LC_ALL=C grep -q 'warning: \[static\] static method should be qualified by type name, Thread, instead of by an expression' javac.log
