# shellcheck shell=bash
# The Java runtime the scripts use, chosen once so that Maven, the test JVMs it forks, the launcher and the
# benchmarks all run on the same one. Sourced by scripts/sluice, test.sh, demo.sh and the bench scripts.
#
# select_java WHO: sets JAVA_HOME to SLUICE_JAVA_HOME when that is set, else to the newest JDK (17 or later)
# installed under /usr/lib/jvm, else to the JDK of the java on PATH; puts its bin/ first on PATH; sets
# SLUICE_JAVA (the java executable), SLUICE_JAVA_FEATURE (17, 25, ...), SLUICE_JAVA_VERSION (the runtime version,
# e.g. 25.0.3+9-LTS) and SLUICE_JAVA_RUNTIME_FLAGS. WHO names the calling script in messages. Exits 2 when there
# is no usable JDK.
#
# Why the newest: the packet pipeline runs about 3 ns/packet faster on JDK 25 than on JDK 17 with the same jar
# (docs/benchmarks.md); the code is compiled for Java 17, so either runs it.

# java_home_feature HOME: prints the JDK's feature version (17, 25, ...) from HOME/release, or nothing.
java_home_feature() {
    local release="$1/release" version
    [[ -f "$release" && -x "$1/bin/java" ]] || return 0
    version=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*"$/\1/p' "$release")
    [[ "$version" =~ ^[0-9]+$ ]] && echo "$version"
    return 0
}

select_java() {
    local who=$1 home="" feature="" candidate candidate_feature
    if [[ -n "${SLUICE_JAVA_HOME:-}" ]]; then
        home=$SLUICE_JAVA_HOME
        feature=$(java_home_feature "$home")
        if [[ -z "$feature" ]]; then
            echo "$who: SLUICE_JAVA_HOME=$home is not a JDK (no bin/java or release file)" >&2
            exit 2
        fi
    else
        for candidate in /usr/lib/jvm/*; do
            [[ -L "$candidate" ]] && continue
            candidate_feature=$(java_home_feature "$candidate")
            [[ -n "$candidate_feature" && -x "$candidate/bin/javac" ]] || continue
            if [[ -z "$feature" || "$candidate_feature" -gt "$feature" ]]; then
                home=$candidate
                feature=$candidate_feature
            fi
        done
        if [[ -z "$home" ]] && command -v javac >/dev/null; then
            home=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
            feature=$(java_home_feature "$home")
        fi
        if [[ -z "$feature" ]]; then
            echo "$who: no JDK found (install openjdk-17-jdk-headless or set SLUICE_JAVA_HOME)" >&2
            exit 2
        fi
    fi
    if [[ "$feature" -lt 17 ]]; then
        echo "$who: $home is Java $feature; Sluice needs Java 17 or later" >&2
        exit 2
    fi
    export JAVA_HOME=$home
    export PATH="$home/bin:$PATH"
    SLUICE_JAVA="$home/bin/java"
    SLUICE_JAVA_FEATURE=$feature
    SLUICE_JAVA_VERSION=$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"$/\1/p' "$home/release")
    SLUICE_JAVA_VERSION=${SLUICE_JAVA_VERSION:-$feature}
    # jnr-ffi loads native code (a restricted method since JDK 22 warns about) and its jffi uses sun.misc.Unsafe's
    # memory access (warned about from JDK 24, JEP 498): allow both, so the logs carry no warnings.
    SLUICE_JAVA_RUNTIME_FLAGS=(--enable-native-access=ALL-UNNAMED)
    if [[ "$feature" -ge 24 ]]; then
        SLUICE_JAVA_RUNTIME_FLAGS+=(--sun-misc-unsafe-memory-access=allow)
        # Maven's own Guava does the same.
        [[ "${MAVEN_OPTS:-}" == *--sun-misc-unsafe-memory-access* ]] ||
            export MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }--sun-misc-unsafe-memory-access=allow"
    fi
}
