package io.sluice.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The start of a command line that runs Sluice code in a new JVM the way {@code scripts/sluice} does: this test
 * JVM's own {@code java}, and the flags Agrona and jnr-ffi need on it (the same as {@code scripts/lib/java.sh}
 * and the root pom's {@code sluice.jvm.flags}).
 */
public final class SluiceJvm
{
    private SluiceJvm()
    {
    }

    /**
     * Returns a new list: the java executable of this JVM, then the flags for its Java version.
     *
     * @return the command so far; add JVM options, the class path and the main class.
     */
    public static List<String> command()
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--add-exports");
        command.add("java.base/jdk.internal.misc=ALL-UNNAMED");
        command.add("--add-opens");
        command.add("java.base/java.nio=ALL-UNNAMED");
        // jnr-ffi loads native code; JDK 24 and later also warn when its jffi uses sun.misc.Unsafe memory access.
        command.add("--enable-native-access=ALL-UNNAMED");
        if (Runtime.version().feature() >= 24)
        {
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        return command;
    }
}
