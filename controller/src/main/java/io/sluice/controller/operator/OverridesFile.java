package io.sluice.controller.operator;

import io.sluice.common.CreatedDirectories;
import io.sluice.common.config.BackendConfig;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.NodeConfig;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the operator's drains and weights across controller restarts and reboots, in the node's state directory
 * ({@code <node.state_dir>/<node>/}, not the shared memory of {@code counters_dir}), one tab-separated line per
 * backend:
 * {@code VIP-NAME  BACKEND-ADDRESS  drained=true|false  weight=N|-1}. Written whole to a temporary file and moved
 * over the old one, so a crash never leaves half a file. A line that cannot be read is reported and skipped.
 */
public final class OverridesFile
{
    /** The file's name in the node directory. */
    public static final String FILE_NAME = "operator-overrides.tsv";

    private final Path path;

    /**
     * Returns the overrides file of a node: {@value #FILE_NAME} in its state directory.
     *
     * @param config the node's configuration.
     * @return the file's adapter; nothing is read or written yet.
     */
    public static OverridesFile of(final NodeConfig config)
    {
        return new OverridesFile(config.stateDirectory().resolve(FILE_NAME));
    }

    /**
     * Moves a file an older controller kept elsewhere (in the node's shared-memory directory) to this path, unless
     * this path already has one; the file is moved whole, or left where it is.
     *
     * @param legacy where an older controller kept the file.
     * @return true when a file was moved.
     * @throws IOException when the file exists but cannot be moved.
     */
    public boolean migrateFrom(final Path legacy) throws IOException
    {
        if (legacy.equals(path) || !Files.exists(legacy) || Files.exists(path))
        {
            return false;
        }
        Files.createDirectories(path.getParent());
        final Path temporary = path.resolveSibling(path.getFileName() + ".tmp");
        Files.copy(legacy, temporary, StandardCopyOption.REPLACE_EXISTING);
        Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.delete(legacy);
        return true;
    }

    /**
     * Creates the file's adapter; nothing is read or written yet.
     *
     * @param path where the overrides live.
     */
    public OverridesFile(final Path path)
    {
        this.path = path;
    }

    /**
     * Returns the file's path.
     *
     * @return the path.
     */
    public Path path()
    {
        return path;
    }

    /**
     * Reads the saved overrides.
     *
     * @param problems receives one line per unreadable line.
     * @return the entries (backend names are not saved: the address identifies the backend), empty when there is no
     *         file.
     * @throws IOException when the file exists but cannot be read.
     */
    public List<BackendWeights.Entry> read(final List<String> problems) throws IOException
    {
        final List<BackendWeights.Entry> entries = new ArrayList<>();
        if (!Files.exists(path))
        {
            return entries;
        }
        int lineNumber = 0;
        for (final String line : Files.readAllLines(path, StandardCharsets.UTF_8))
        {
            lineNumber++;
            if (line.isBlank() || line.startsWith("#"))
            {
                continue;
            }
            try
            {
                entries.add(parse(line));
            }
            catch (final IllegalArgumentException ex)
            {
                problems.add(path + ": line " + lineNumber + ": " + ex.getMessage() + " (skipped)");
            }
        }
        return entries;
    }

    /**
     * Replaces the file with these overrides.
     *
     * @param overrides the overridden entries.
     * @throws IOException when the file cannot be written.
     */
    public void write(final List<BackendWeights.Entry> overrides) throws IOException
    {
        final StringBuilder text = new StringBuilder("# Sluice operator overrides, written by the controller\n");
        for (final BackendWeights.Entry entry : overrides)
        {
            text.append(entry.vipName()).append('\t').append(IpLiterals.format(entry.backend().address()))
                .append("\tdrained=").append(entry.drained()).append("\tweight=").append(entry.override()).append('\n');
        }
        CreatedDirectories.create(path.getParent());
        final Path temporary = path.resolveSibling(path.getFileName() + ".tmp");
        Files.writeString(temporary, text, StandardCharsets.UTF_8);
        Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static BackendWeights.Entry parse(final String line)
    {
        final String[] fields = line.split("\t");
        if (fields.length != 4 || !fields[2].startsWith("drained=") || !fields[3].startsWith("weight="))
        {
            throw new IllegalArgumentException("expected VIP, address, drained=..., weight=...");
        }
        final String drained = fields[2].substring("drained=".length());
        if (!drained.equals("true") && !drained.equals("false"))
        {
            throw new IllegalArgumentException("drained must be true or false, got '" + drained + "'");
        }
        final int weight;
        try
        {
            weight = Integer.parseInt(fields[3].substring("weight=".length()));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("weight is not a number: " + fields[3]);
        }
        if (weight < -1 || weight > BackendWeights.MAX_WEIGHT)
        {
            throw new IllegalArgumentException("weight out of range: " + weight);
        }
        final BackendConfig backend = new BackendConfig(fields[1], IpLiterals.parse(fields[1]), 1);
        return new BackendWeights.Entry(fields[0], backend, -1, weight, Boolean.parseBoolean(drained));
    }
}
