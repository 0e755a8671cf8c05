package io.sluice.controller;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The controller's package map (docs/architecture.md, "Controller packages"): which of the controller's packages
 * each one may import, and a {@code package-info.java} in every package. Reads the main sources, so a new import
 * across the map or a new package without its description fails here.
 */
class ControllerPackagesTest
{
    private static final Path SOURCES = Path.of("src/main/java/io/sluice/controller");
    private static final String ROOT = "io.sluice.controller";
    // group 1: the controller package an import names, "" for the root package.
    private static final Pattern IMPORT =
        Pattern.compile("^import (?:static )?io\\.sluice\\.controller\\.(?:([a-z.]+)\\.)?[A-Z]", Pattern.MULTILINE);

    /** Package (relative to the root, "" for the root) to the controller packages it may use. */
    private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
        Map.entry("health", Set.of("health.check")),
        Map.entry("health.check", Set.of()),
        Map.entry("channel", Set.of()),
        Map.entry("liveness", Set.of()),
        Map.entry("announce", Set.of()),
        Map.entry("bgp", Set.of("announce")),
        Map.entry("operator", Set.of()),
        Map.entry("reload", Set.of("health", "operator", "bgp")),
        Map.entry("status", Set.of()),
        Map.entry("metrics", Set.of("status")),
        Map.entry("http", Set.of("metrics", "operator", "status")));

    @Test
    void packagesUseOnlyWhatTheMapAllows() throws IOException
    {
        final List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES))
        {
            for (final Path file : files.filter(f -> f.toString().endsWith(".java")).toList())
            {
                final String pkg = packageOf(file);
                if (pkg.isEmpty())
                {
                    continue; // the root wires everything
                }
                final Set<String> allowed = ALLOWED.get(pkg);
                if (allowed == null)
                {
                    violations.add(pkg + ": not in the package map (" + file + ")");
                    continue;
                }
                final Matcher matcher = IMPORT.matcher(Files.readString(file));
                while (matcher.find())
                {
                    final String used = matcher.group(1) == null ? "" : matcher.group(1);
                    if (!used.equals(pkg) && !allowed.contains(used))
                    {
                        violations.add(SOURCES.relativize(file) + " imports " +
                            (used.isEmpty() ? ROOT : ROOT + "." + used));
                    }
                }
            }
        }
        assertEquals(List.of(), violations);
    }

    @Test
    void everyPackageHasItsPackageInfo() throws IOException
    {
        final Set<String> missing = new TreeSet<>();
        try (Stream<Path> files = Files.walk(SOURCES))
        {
            files.filter(f -> f.toString().endsWith(".java"))
                .map(Path::getParent)
                .filter(directory -> !Files.isRegularFile(directory.resolve("package-info.java")))
                .forEach(directory -> missing.add(directory.toString()));
        }
        assertEquals(Set.of(), missing);
    }

    private static String packageOf(final Path file)
    {
        return SOURCES.relativize(file.getParent()).toString().replace('/', '.');
    }
}
