package io.sluice.testkit.tags;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * When {@link LeaveOutFilter} left tests out, prints how many once the launcher session (one surefire fork, so one
 * module) ends, and writes the list to {@value #DETAILS_FILE} under the working directory (the module's). Prints
 * nothing when no tag is left out.
 */
public final class LeftOutSummary implements LauncherSessionListener
{
    /**
     * Where the list of left-out tests goes, relative to the working directory.
     */
    public static final String DETAILS_FILE = "target/left-out-tests.txt";

    @Override
    public void launcherSessionClosed(final LauncherSession session)
    {
        if (LeaveOutFilter.tags(System.getProperty(LeaveOutFilter.PROPERTY, "")).isEmpty())
        {
            return;
        }
        final List<LeftOutTests.Entry> entries = LeftOutTests.LAUNCHER.entries();
        final Path details = Path.of(DETAILS_FILE).toAbsolutePath();
        final List<String> lines = new ArrayList<>();
        lines.add("left out " + LeftOutTests.summary(entries));
        lines.addAll(LeftOutTests.details(entries));
        String where = "; listed in " + details;
        try
        {
            Files.createDirectories(details.getParent());
            Files.write(details, lines, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            where = " (cannot write " + details + ": " + ex.getMessage() + ")";
        }
        System.out.println("[sluice -Punit] tests tagged " +
            String.join(", ", LeaveOutFilter.tags(System.getProperty(LeaveOutFilter.PROPERTY, ""))) +
            " left out: " + LeftOutTests.summary(entries) + where);
    }
}
