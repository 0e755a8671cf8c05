package io.sluice.common.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One node's configuration, read from one YAML file that the forwarder reads at start and the controller reads too.
 * See {@code docs/config.example.yaml} for every key.
 * <p>
 * Loading is strict: an unknown key, a missing required key, a value of the wrong type or range, a host name where an
 * address literal belongs, or an inconsistency between sections is a {@link ConfigException} naming the file, the
 * field path and the reason. Nothing is resolved through DNS and no type named in the file is instantiated.
 *
 * @param node       the {@code node} section.
 * @param forwarder  the {@code forwarder} section, with defaults applied.
 * @param vips       the VIPs in file order, possibly none.
 * @param controller the {@code controller} section, with defaults applied; {@link ControllerConfig#defaults()}
 *                   when absent.
 */
public record NodeConfig(
    NodeIdentity node, ForwarderConfig forwarder, List<VipConfig> vips, ControllerConfig controller)
{
    /** Prefixes the node name in the DPDK file prefix, so that Sluice's hugepage files are recognisable. */
    public static final String FILE_PREFIX_PREFIX = "sluice-";

    /**
     * Copies the collections, so the record is immutable.
     */
    public NodeConfig
    {
        vips = List.copyOf(vips);
    }

    /**
     * Loads a file, checking worker cores against this machine's ({@link MachineCpus#probe()}).
     *
     * @param file the YAML file.
     * @return the configuration.
     * @throws ConfigException when the file cannot be read or is not a valid configuration.
     */
    public static NodeConfig load(final Path file) throws ConfigException
    {
        return load(file, MachineCpus.probe());
    }

    /**
     * Loads a file, checking worker cores against a given core count (for tests and for checking a file meant for
     * another machine).
     *
     * @param file           the YAML file.
     * @param availableCores the number of cores; workers may use cores 0 to availableCores - 1.
     * @return the configuration.
     * @throws ConfigException when the file cannot be read or is not a valid configuration.
     */
    public static NodeConfig load(final Path file, final int availableCores) throws ConfigException
    {
        return load(file, cores(availableCores));
    }

    /**
     * Loads a file, checking worker cores against the given CPUs.
     *
     * @param file the YAML file.
     * @param cpus the machine's cores and what this process may pin to.
     * @return the configuration.
     * @throws ConfigException when the file cannot be read or is not a valid configuration.
     */
    public static NodeConfig load(final Path file, final MachineCpus cpus) throws ConfigException
    {
        final String name = file.toString();
        final String text;
        try
        {
            text = Files.readString(file);
        }
        catch (final NoSuchFileException ex)
        {
            throw new ConfigException(name, "", "no such file");
        }
        catch (final AccessDeniedException ex)
        {
            throw new ConfigException(name, "", "permission denied");
        }
        catch (final CharacterCodingException ex)
        {
            throw new ConfigException(name, "", "not UTF-8 text");
        }
        catch (final IOException ex)
        {
            throw new ConfigException(name, "", "cannot read: " + ex);
        }
        return parse(name, text, cpus);
    }

    /**
     * Parses configuration text.
     *
     * @param file           the name to use in messages, e.g. {@code node.yaml}.
     * @param yaml           the YAML text.
     * @param availableCores the number of cores; workers may use cores 0 to availableCores - 1.
     * @return the configuration.
     * @throws ConfigException when the text is not a valid configuration.
     */
    public static NodeConfig parse(final String file, final String yaml, final int availableCores)
        throws ConfigException
    {
        return parse(file, yaml, cores(availableCores));
    }

    /**
     * Parses configuration text.
     *
     * @param file the name to use in messages, e.g. {@code node.yaml}.
     * @param yaml the YAML text.
     * @param cpus the machine's cores and what this process may pin to.
     * @return the configuration.
     * @throws ConfigException when the text is not a valid configuration.
     */
    public static NodeConfig parse(final String file, final String yaml, final MachineCpus cpus)
        throws ConfigException
    {
        return NodeConfigReader.read(file, YamlDocument.parse(file, yaml), cpus);
    }

    private static MachineCpus cores(final int availableCores)
    {
        if (availableCores < 1)
        {
            throw new IllegalArgumentException("availableCores must be >= 1, got " + availableCores);
        }
        return MachineCpus.ofCores(availableCores);
    }

    /**
     * Returns the health check of a VIP's backends.
     *
     * @param vip one of {@link #vips}.
     * @return the VIP's own {@code health_check}, else {@code controller.health_checks}.
     */
    public HealthCheckConfig healthCheck(final VipConfig vip)
    {
        return controller.healthCheckFor(vip);
    }

    /**
     * Returns the DPDK file prefix that keeps this node's hugepage files apart from other DPDK processes'.
     *
     * @return {@code sluice-<node name>}.
     */
    public String dpdkFilePrefix()
    {
        return FILE_PREFIX_PREFIX + node.name();
    }

    /**
     * Returns the full argument vector for {@code rte_eal_init}: the program name, {@code --file-prefix=sluice-<node
     * name>} unless the configured arguments set a file prefix, then the configured arguments.
     *
     * @param program argv[0].
     * @return the arguments, unmodifiable.
     */
    public List<String> ealArgv(final String program)
    {
        final List<String> argv = new ArrayList<>(forwarder.ealArgs().size() + 2);
        argv.add(program);
        boolean hasFilePrefix = false;
        for (final String arg : forwarder.ealArgs())
        {
            hasFilePrefix |= arg.equals("--file-prefix") || arg.startsWith("--file-prefix=");
        }
        if (!hasFilePrefix)
        {
            argv.add("--file-prefix=" + dpdkFilePrefix());
        }
        argv.addAll(forwarder.ealArgs());
        return List.copyOf(argv);
    }

    /**
     * Returns the directory of this node's shared-memory files (counters, command ring).
     *
     * @return {@code <counters_dir>/<node name>}.
     */
    public Path nodeDirectory()
    {
        return forwarder.countersDir().resolve(node.name());
    }

    /**
     * Returns the directory of this node's lasting state (the operator's overrides), kept across reboots.
     *
     * @return {@code <node.state_dir>/<node name>}.
     */
    public Path stateDirectory()
    {
        return node.stateDir().resolve(node.name());
    }
}
