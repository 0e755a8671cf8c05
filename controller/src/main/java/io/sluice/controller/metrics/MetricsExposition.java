package io.sluice.controller.metrics;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Renders snapshots in the Prometheus text exposition format (0.0.4) with the Prometheus client's writer: what
 * {@link ControllerHttpServer} serves on {@code /metrics}.
 */
public final class MetricsExposition
{
    /**
     * The {@code Content-Type} of the text format.
     */
    public static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

    private static final PrometheusTextFormatWriter WRITER = PrometheusTextFormatWriter.create();

    private MetricsExposition()
    {
    }

    /**
     * Renders snapshots.
     *
     * @param snapshots the snapshots.
     * @return the exposition text.
     */
    public static String text(final MetricSnapshots snapshots)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        try
        {
            WRITER.write(out, snapshots);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
