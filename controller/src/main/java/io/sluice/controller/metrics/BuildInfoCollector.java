package io.sluice.controller.metrics;

import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * {@code sluice_build_info{version, git_commit}}: which build a node runs, from the {@code build.properties} Maven
 * writes into the controller's jar (the commit is {@code unknown} unless the build was given
 * {@code -Dsluice.git.commit}, as {@code scripts/sluice} and {@code scripts/package.sh} do). The metric is the
 * Prometheus client's {@link Info}.
 */
public final class BuildInfoCollector implements MultiCollector
{
    static final String NAME = "sluice_build";
    private static final String UNKNOWN = "unknown";

    private final Info info;

    /**
     * Creates the collector for the given build.
     *
     * @param version   the version.
     * @param gitCommit the commit, or {@code unknown}.
     */
    public BuildInfoCollector(final String version, final String gitCommit)
    {
        info = Info.builder().name(NAME).help("The Sluice build this node runs.")
            .labelNames("version", "git_commit").build();
        info.setLabelValues(known(version), known(gitCommit));
    }

    /**
     * Creates the collector for the build this class was loaded from.
     *
     * @return the collector.
     */
    public static BuildInfoCollector ofThisBuild()
    {
        final Properties properties = new Properties();
        try (InputStream in = BuildInfoCollector.class.getResourceAsStream("build.properties"))
        {
            if (in != null)
            {
                properties.load(in);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return new BuildInfoCollector(properties.getProperty("version"), properties.getProperty("git_commit"));
    }

    @Override
    public MetricSnapshots collect()
    {
        return new MetricSnapshots(info.collect());
    }

    // An unfiltered placeholder (a build from an IDE) or an empty value says nothing.
    private static String known(final String value)
    {
        return value == null || value.isBlank() || value.startsWith("${") ? UNKNOWN : value.trim();
    }
}
