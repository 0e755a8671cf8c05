package io.sluice.forwarder;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.sluice.common.config.BackendConfig;
import io.sluice.common.config.ConfigException;
import io.sluice.common.config.ForwarderConfig;
import io.sluice.common.config.IdleStrategyKind;
import io.sluice.common.config.MachineCpus;
import io.sluice.common.config.MacAddress;
import io.sluice.common.config.NodeConfig;
import io.sluice.common.config.NumaLayout;
import io.sluice.common.config.PortConfig;
import io.sluice.common.config.TunnelEntropyConfig;
import io.sluice.common.config.VipConfig;
import io.sluice.common.config.WorkerConfig;
import io.sluice.common.config.WorkerCpuLayout;
import io.sluice.common.control.ControlChannel;
import io.sluice.common.control.ControlCommand;
import io.sluice.forwarder.control.ControlServer;
import io.sluice.forwarder.counters.CounterAllocator;
import io.sluice.common.counters.CountersFile;
import io.sluice.common.counters.CountersFileHeader;
import io.sluice.common.counters.ForwarderState;
import io.sluice.common.log.AgentErrorLog;
import io.sluice.forwarder.agent.AffinityWorkerCores;
import io.sluice.forwarder.agent.ControlAgent;
import io.sluice.forwarder.agent.CoreHeldException;
import io.sluice.forwarder.agent.CoreHolder;
import io.sluice.forwarder.capture.CaptureFile;
import io.sluice.forwarder.capture.CaptureTap;
import io.sluice.forwarder.agent.ForwarderCounters;
import io.sluice.forwarder.agent.ForwarderWorker;
import io.sluice.forwarder.agent.PortStatsSampler;
import io.sluice.forwarder.agent.ProcessCounters;
import io.sluice.forwarder.agent.WorkerCounters;
import io.sluice.forwarder.dpdk.ShimLayout;
import io.sluice.forwarder.dpdk.Dpdk;
import io.sluice.forwarder.dpdk.ShimLibrary;
import io.sluice.forwarder.lb.ConnectionTable;
import io.sluice.forwarder.pipeline.IcmpEchoResponder;
import io.sluice.forwarder.pipeline.IcmpTooBigResponder;
import io.sluice.forwarder.pipeline.PacketPipeline;
import io.sluice.forwarder.pipeline.PipelineConfig;
import io.sluice.forwarder.pipeline.PipelineWarmup;
import io.sluice.forwarder.pipeline.TunnelOptions;
import io.sluice.forwarder.pipeline.PipelineCounters;
import io.sluice.forwarder.state.LoadBalancerState;
import io.sluice.forwarder.state.SnapshotPublisher;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One forwarder process's data plane, assembled from the node config: EAL, ports and pools, the forwarding
 * state with its control thread, the shared-memory counters and control channel, and one pinned worker per
 * configured core. {@link #close()} takes it all down in reverse order and removes every file it made.
 */
public final class Forwarder implements AutoCloseable
{
    private static final int MBUF_CACHE = 256;
    /** How long a worker may take to reserve its core, register with DPDK and build its pipeline. */
    private static final long WORKER_START_TIMEOUT_S = 60;
    /** Bursts of the JIT warm-up before the workers start ({@link PipelineWarmup}); 0 turns it off. */
    public static final String WARMUP_BURSTS_PROPERTY = "sluice.warmup.bursts";
    private static final long WARMUP_OWN_MAC = 0x02_00_00_00_00_01L;
    private static final long WARMUP_NEXT_HOP_MAC = 0x02_00_00_00_00_02L;

    private final NodeConfig config;
    private final String configFile;
    private static final System.Logger LOGGER = System.getLogger(Forwarder.class.getName());

    private final AgentErrorLog agentErrors =
        new AgentErrorLog("forwarder", SystemEpochClock.INSTANCE, AgentErrorLog.DEFAULT_CAPACITY, 10_000);
    private final List<String> portNotes = new ArrayList<>();
    private final Dpdk dpdk;
    private final ShimLibrary shim;
    private final Map<String, Integer> portIds = new LinkedHashMap<>();
    private final List<Long> pools = new ArrayList<>();
    private final List<Integer> startedPorts = new ArrayList<>();
    private final Map<String, Integer> portSockets = new LinkedHashMap<>();
    private final List<AgentRunner> workerRunners = new ArrayList<>();
    private final List<ForwarderWorker> workers = new ArrayList<>();
    private CountersFile countersFile;
    private CaptureFile captureFile;
    private ControlChannel controlChannel;
    private ProcessCounters processCounters;
    private AgentRunner controlRunner;
    private ControlAgent controlAgent;
    private SnapshotPublisher publisher;
    private ForwarderCounters forwarderCounters;

    private Forwarder(final NodeConfig config, final String configFile)
    {
        this.config = config;
        this.configFile = configFile;
        this.dpdk = Dpdk.load();
        this.shim = dpdk.library();
    }

    /**
     * Starts a forwarder; on failure everything started so far is taken down again.
     *
     * @param config the node config.
     * @return the running forwarder.
     */
    public static Forwarder start(final NodeConfig config)
    {
        return start(config, "node config");
    }

    /**
     * Starts a forwarder; on failure everything started so far is taken down again.
     *
     * @param config     the node config.
     * @param configFile the file it came from, named in config problems found once EAL runs.
     * @return the running forwarder.
     * @throws ForwarderConfigException when a configured port is missing or its device cannot do what is asked, or
     *                                   another process holds a worker's core.
     */
    public static Forwarder start(final NodeConfig config, final String configFile)
    {
        final Forwarder forwarder = new Forwarder(config, configFile);
        try
        {
            forwarder.agentErrors.startReporter(1000);
            forwarder.checkWorkerCores();
            forwarder.warmUpJit();
            forwarder.startDpdk();
            forwarder.startControl();
            forwarder.startWorkers();
            // The summary first: whoever waits for RUNNING (tests, sluice status) finds it logged.
            forwarder.printSummary();
            forwarder.processCounters.state(ForwarderState.RUNNING);
            return forwarder;
        }
        catch (final RuntimeException ex)
        {
            forwarder.close();
            throw ex;
        }
    }

    /**
     * Returns the EAL arguments: the configured ones plus the defaults a forwarder needs.
     *
     * @param config node config.
     * @return arguments without a program name.
     */
    public static List<String> ealArguments(final NodeConfig config)
    {
        final List<String> argv = new ArrayList<>(config.ealArgv("sluice"));
        argv.remove(0);
        final boolean lcores = argv.stream().anyMatch(a -> a.equals("-l") || a.equals("-c") ||
            a.startsWith("--lcores") || a.startsWith("-l") && a.length() > 2);
        if (!lcores)
        {
            // One EAL lcore: workers are our own threads, registered with DPDK, not EAL's.
            argv.add(0, "0");
            argv.add(0, "-l");
        }
        if (!argv.contains("--no-huge") && !argv.contains("--in-memory"))
        {
            // Without it EAL leaves <prefix>map_* files in /dev/hugepages even after a clean shutdown.
            argv.add("--in-memory");
        }
        return argv;
    }

    // Before EAL: a core another process holds (a second forwarder, a benchmark) is a config error, as the worker
    // would also find when it reserves the core (startWorkers), but found before any DPDK resource exists.
    private void checkWorkerCores()
    {
        final List<WorkerConfig> workers = config.forwarder().workers();
        for (int i = 0; i < workers.size(); i++)
        {
            final CoreHolder holder = AffinityWorkerCores.holder(workers.get(i).core());
            if (holder != null)
            {
                throw coreHeld(i, holder);
            }
        }
    }

    private ForwarderConfigException coreHeld(final int worker, final CoreHolder holder)
    {
        return new ForwarderConfigException(
            new ConfigException(configFile, "forwarder.workers[" + worker + "].core", holder.describe()));
    }

    private void startDpdk()
    {
        final ForwarderConfig forwarder = config.forwarder();
        dpdk.initEal(ealArguments(config));
        try
        {
            PortCheck.check(shim, configFile, config, portNotes);
        }
        catch (final ConfigException ex)
        {
            throw new ForwarderConfigException(ex);
        }
        for (final PortConfig port : forwarder.ports())
        {
            final int id = dpdk.portByName(port.name());
            portIds.put(port.name(), id);
            final int rxQueues = Math.max(1, forwarder.rxQueueCount(port.name()));
            final int txQueues = Math.max(1, forwarder.txQueueCount(port.name()));
            // NodeResources checked the pools against EAL's memory, so the count fits an int. The pool lives on
            // the port's NUMA socket (SOCKET_ANY when DPDK does not know it): the NIC writes into it, the worker
            // of that port reads it.
            final int socket = dpdk.portSocket(id);
            final long pool = dpdk.createMempool("sluice-" + port.name(),
                Math.toIntExact(forwarder.poolMbufs(port.name())), MBUF_CACHE,
                ShimLayout.MBUF_HEADROOM + port.frameRoom(), socket);
            pools.add(pool);
            portSockets.put(port.name(), socket);
            dpdk.check(shim.sluice_port_configure(id, pool, rxQueues, txQueues, port.rxRing(), port.txRing(),
                port.mtu(), rxQueues > 1 && forwarder.servedBy(port.name()) == null ? 1 : 0),
                "configure port " + port.name());
            dpdk.check(shim.sluice_port_start(id), "start port " + port.name());
            startedPorts.add(id);
        }
        for (final PortConfig port : forwarder.ports())
        {
            if (port.hasKernelPort())
            {
                giveKernelPortTheMacOf(port.name(), port.kernelPort());
            }
        }
    }

    // The source MAC of what leaves a port: the port's own (own_mac: auto), or the configured one.
    private long ownMacOf(final String portName)
    {
        return config.forwarder().ownMacAuto() ? portMac(portName) : config.forwarder().ownMac().value();
    }

    // The node's kernel answers ARP and neighbour solicitations for its addresses through the kernel port: with
    // another MAC than the data port's, the router would send the node's own traffic to an address the NIC does
    // not accept. So the kernel port takes the data port's MAC, whatever its own (net_tap makes one up unless
    // eal_args says mac=...).
    private void giveKernelPortTheMacOf(final String dataPort, final String kernelPort)
    {
        final byte[] mac = portMacOctets(dataPort);
        final byte[] kernelMac = portMacOctets(kernelPort);
        if (Arrays.equals(mac, kernelMac))
        {
            return;
        }
        final String text = formatMac(macValue(mac));
        dpdk.check(shim.sluice_port_set_mac(portIds.get(kernelPort), mac),
            "set the MAC of kernel port " + kernelPort + " to " + text + " (the MAC of " + dataPort + ")");
        info("forwarder: kernel port %s takes %s's MAC %s (it had %s)%n", kernelPort, dataPort, text,
            formatMac(macValue(kernelMac)));
    }

    private long portMac(final String portName)
    {
        return macValue(portMacOctets(portName));
    }

    private byte[] portMacOctets(final String portName)
    {
        final byte[] mac = new byte[6];
        dpdk.check(shim.sluice_port_mac(portIds.get(portName), mac), "MAC of port " + portName);
        return mac;
    }

    private static long macValue(final byte[] octets)
    {
        long value = 0;
        for (final byte b : octets)
        {
            value = (value << 8) | (b & 0xFF);
        }
        return value;
    }

    // A worker's pipeline sends on its transmit port: that port's MAC and that port's next hop (per-port MACs, so
    // a two-armed node sends to the backends' router from the backend-facing port's own address).
    private PipelineConfig pipelineConfig(final WorkerConfig worker)
    {
        return pipelineConfig(ownMacOf(worker.txPort()), config.forwarder().nextHopMacOf(worker.txPort()).value());
    }

    // The node's pipeline settings with the given MACs.
    private PipelineConfig pipelineConfig(final long ownMac, final long nextHopMac)
    {
        final ForwarderConfig f = config.forwarder();
        return new PipelineConfig(ownMac, nextHopMac,
            f.tunnelSourceV4(), f.tunnelSourceV6(),
            f.hashSeed(), f.maglevTableSize(), f.connectionTable().capacity(), f.connectionTable().tcpIdleTimeoutNs(),
            f.connectionTable().udpIdleTimeoutNs(), f.connectionTable().otherIdleTimeoutNs(), f.tunnelMtu(),
            f.maxVips(), f.maxBackends());
    }

    // The reader keeps both within the files' limits (ForwarderConfig.maxCounters, responseCapacity).
    private int maxCounters()
    {
        return Math.toIntExact(config.forwarder().maxCounters());
    }

    private void startControl()
    {
        final ForwarderConfig f = config.forwarder();
        countersFile = CountersFile.create(
            config.nodeDirectory().resolve(CountersFileHeader.FILE_NAME), maxCounters());
        final CounterAllocator allocator = new CounterAllocator(countersFile.manager());
        processCounters = new ProcessCounters(allocator);
        processCounters.state(ForwarderState.STARTING);
        forwarderCounters = new ForwarderCounters(allocator, f.workers().size(), SystemEpochClock.INSTANCE);
        final int[] ports = portIds.values().stream().mapToInt(Integer::intValue).toArray();
        final PortStatsSampler sampler = new PortStatsSampler(shim, ports, portPools(ports), allocator);
        // GET_STATE answers go through the response buffer: leave room for every backend (about 256 bytes each).
        final int responseCapacity = Math.toIntExact(f.responseCapacity());
        controlChannel = ControlChannel.create(
            config.nodeDirectory().resolve(ControlChannel.FILE_NAME), f.control().ringCapacity(), responseCapacity);

        final LoadBalancerState state =
            new LoadBalancerState(f.maxVips(), f.maxBackends(), f.maglevTableSize(), f.hashSeed());
        publisher = new SnapshotPublisher(state.snapshot());
        final ControlServer server = new ControlServer(controlChannel, SystemEpochClock.INSTANCE, this::onAgentError);
        controlAgent = new ControlAgent(state, publisher, forwarderCounters, server, sampler, processCounters);
        applyConfiguredServices();
        controlRunner = new AgentRunner(new SleepingMillisIdleStrategy(1), this::onAgentError, null, controlAgent);
        AgentRunner.startOnThread(controlRunner);
    }

    // The pool each port was configured with (startDpdk creates one per configured port, in config order).
    private long[] portPools(final int[] ports)
    {
        final long[] byPort = new long[ports.length];
        final List<PortConfig> configured = config.forwarder().ports();
        for (int i = 0; i < configured.size() && i < pools.size(); i++)
        {
            final int id = portIds.get(configured.get(i).name());
            for (int p = 0; p < ports.length; p++)
            {
                if (ports[p] == id)
                {
                    byPort[p] = pools.get(i);
                }
            }
        }
        return byPort;
    }

    // Backends from the config start healthy: the forwarder alone has no health checks. A controller that
    // starts later marks down whatever fails its checks.
    private void applyConfiguredServices()
    {
        for (final VipConfig vip : config.vips())
        {
            controlAgent.applyInitial(new ControlCommand.AddVip(vip.vip(), vip.name()));
            for (final BackendConfig backend : vip.backends())
            {
                controlAgent.applyInitial(new ControlCommand.AddBackend(vip.vip(), backend.address(), backend.weight(),
                    true, backend.name()));
            }
        }
        controlAgent.publish();
    }

    // The capture file: the workers look at it once per duty cycle; sluice capture starts and ends sessions in it.
    private void createCaptureFile()
    {
        final ForwarderConfig f = config.forwarder();
        final int maxId = portIds.values().stream().mapToInt(Integer::intValue).max().orElse(-1);
        final List<String> names = new ArrayList<>();
        for (int id = 0; id <= maxId; id++)
        {
            names.add("port" + id);
        }
        portIds.forEach((name, id) -> names.set(id, name));
        final int[] rx = new int[f.workers().size()];
        final int[] tx = new int[rx.length];
        for (int i = 0; i < rx.length; i++)
        {
            rx[i] = portIds.get(f.workers().get(i).rxPort());
            tx[i] = portIds.get(f.workers().get(i).txPort());
        }
        captureFile = CaptureFile.create(config.nodeDirectory().resolve(CaptureFile.FILE_NAME),
            CaptureFile.DEFAULT_RING_CAPACITY, names, rx, tx);
    }

    private void startWorkers()
    {
        final ForwarderConfig f = config.forwarder();
        createCaptureFile();
        for (int i = 0; i < f.workers().size(); i++)
        {
            final WorkerConfig w = f.workers().get(i);
            final PipelineConfig pipelineConfig = pipelineConfig(w);
            final int queues = w.rx().size();
            final int[] rxPorts = new int[queues];
            final int[] rxQueues = new int[queues];
            final int[] kernelPorts = new int[queues];
            final int[] relayQueues = new int[queues];
            // Replies (echo, too big) leave by the port the packet came in on, on the worker's return queue there
            // (its TX queue, or one of its own on a port it only receives from): the config gives one on each of
            // its receive ports whenever replies are on.
            boolean echo = true;
            for (int q = 0; q < queues; q++)
            {
                final WorkerConfig.RxQueue rx = w.rx().get(q);
                final String kernelPort = f.kernelPortOf(rx.port());
                rxPorts[q] = portIds.get(rx.port());
                rxQueues[q] = rx.queue();
                kernelPorts[q] = kernelPort == null ? ForwarderWorker.NO_KERNEL_PORT : portIds.get(kernelPort);
                relayQueues[q] = f.returnQueue(i, rx.port());
                echo &= relayQueues[q] >= 0;
            }
            final boolean echoReplies = echo;
            final int workerIndex = i;
            final TunnelOptions tunnelOptions = tunnelOptions(w.txPort());
            final ForwarderWorker worker = new ForwarderWorker(i, w.core(), AffinityWorkerCores.INSTANCE, shim,
                rxPorts, rxQueues,
                portIds.get(w.txPort()), w.txQueue(), kernelPorts, rxQueues, relayQueues,
                () -> newPipeline(workerIndex, pipelineConfig, tunnelOptions, echoReplies),
                new WorkerCounters(forwarderCounters.publisher(i)),
                SystemNanoClock.INSTANCE,
                new CaptureTap(captureFile, i, portIds.get(w.rxPort()), portIds.get(w.txPort())));
            // IPv4 without DF too big for the tunnel leaves as outer fragments, the later ones from the TX port's pool
            worker.fragmentPool(portPools(new int[]{portIds.get(w.txPort())})[0]);
            final AgentRunner runner = new AgentRunner(idleStrategy(f.idleStrategy()), this::onAgentError, null,
                worker);
            workerRunners.add(runner);
            workers.add(worker);
            AgentRunner.startOnThread(runner);
        }
        for (int i = 0; i < workers.size(); i++)
        {
            awaitStart(i, workers.get(i));
        }
    }

    // Compiles the packet path from steady synthetic traffic (PipelineWarmup says why), once per process since
    // compiled code is shared by every worker, and before EAL and the counters file: a controller counts a starting
    // forwarder alive from that file's start time, so the time taken here does not count against its start grace.
    // The first worker's settings but the MACs, which come from the ports (the code path does not depend on them).
    // -Dsluice.warmup.bursts=0 turns it off.
    private void warmUpJit()
    {
        final int bursts = Integer.getInteger(WARMUP_BURSTS_PROPERTY, PipelineWarmup.DEFAULT_BURSTS);
        if (bursts <= 0)
        {
            info("  JIT warm-up off (-D%s=%d)%n", WARMUP_BURSTS_PROPERTY, bursts);
            return;
        }
        final WorkerConfig first = config.forwarder().workers().get(0);
        final PipelineWarmup.Result result = PipelineWarmup.run(
            pipelineConfig(WARMUP_OWN_MAC, WARMUP_NEXT_HOP_MAC), tunnelOptions(first.txPort()), bursts);
        info("  JIT warm-up: %d synthetic frames (%d forwarded, %d hits, %d misses) in %d ms%n", result.frames(),
            result.forwarded(), result.hits(), result.misses(), TimeUnit.NANOSECONDS.toMillis(result.nanos()));
    }

    // A worker that could not take its core, register or build its pipeline stops the start: without it, its
    // queues would go unread.
    private void awaitStart(final int index, final ForwarderWorker worker)
    {
        try
        {
            worker.started().get(WORKER_START_TIMEOUT_S, TimeUnit.SECONDS);
        }
        catch (final ExecutionException ex)
        {
            if (ex.getCause() instanceof CoreHeldException held)
            {
                throw coreHeld(index, held.holder());
            }
            throw new IllegalStateException(worker.roleName() + " did not start: " + ex.getCause().getMessage(),
                ex.getCause());
        }
        catch (final TimeoutException ex)
        {
            throw new IllegalStateException(worker.roleName() + " did not start within " + WORKER_START_TIMEOUT_S +
                " s", ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + worker.roleName() + " started", ex);
        }
    }

    // Runs on the worker's thread once pinned (ForwarderWorker.onStart): the table's memory is zeroed there, so
    // first touch puts it on the worker's NUMA node, not on the main thread's.
    // The start-up line says how much of the table the kernel really put in huge pages (and why not, when not).
    private PacketPipeline newPipeline(final int worker, final PipelineConfig pipelineConfig,
        final TunnelOptions tunnelOptions, final boolean repliesOnRxPort)
    {
        final ForwarderConfig f = config.forwarder();
        // Grows as flows arrive: few flows stay in few pages.
        final ConnectionTable table = pipelineConfig.newConnectionTable();
        info("  rx-worker-%d: connection table %s%n", worker, table.describeMemory());
        if (table.entriesInUse() < table.capacity())
        {
            info("  rx-worker-%d: connection table uses %d entries at first, doubling as flows fill a quarter%n",
                worker, table.entriesInUse());
        }
        final PacketPipeline pipeline =
            new PacketPipeline(pipelineConfig, tunnelOptions, publisher, table,
                new PipelineCounters(f.maxVips(), f.maxBackends()));
        if (repliesOnRxPort && f.icmpEcho().reply())
        {
            pipeline.echoResponder(new IcmpEchoResponder(f.icmpEcho().ratePerSecond(), f.icmpEcho().burst()));
        }
        // Without a too-big responder a DF packet too big for the tunnel is only dropped.
        if (repliesOnRxPort && f.icmpTooBig().send())
        {
            pipeline.tooBigResponder(new IcmpTooBigResponder(f.icmpTooBig().ratePerSecond(), f.icmpTooBig().burst()));
        }
        return pipeline;
    }

    private void logTunnelOptions(final ForwarderConfig f)
    {
        final TunnelEntropyConfig entropy = f.tunnelEntropy();
        if (!entropy.isNone())
        {
            info("  tunnel entropy: GRE key %s, outer source %s%s%n", entropy.greKey() ? "on" : "off",
                entropy.sourcePrefixV4() == null ? "fixed" :
                    entropy.sourcePrefixV4().getHostAddress() + "/" + entropy.sourcePrefixV4Length(),
                entropy.sourcePrefixV6() == null ? "" :
                    " " + entropy.sourcePrefixV6().getHostAddress() + "/" + entropy.sourcePrefixV6Length());
        }
        for (final PortConfig port : f.ports())
        {
            if (port.vlan() != 0)
            {
                info("  port %s: encapsulated frames tagged 802.1Q VLAN %d PCP %d%n", port.name(), port.vlan(),
                    port.vlanPcp());
            }
        }
    }

    // The node's tunnel entropy with the 802.1Q tag of the port the worker sends on.
    private TunnelOptions tunnelOptions(final String txPort)
    {
        final ForwarderConfig f = config.forwarder();
        final TunnelEntropyConfig entropy = f.tunnelEntropy();
        return new TunnelOptions(entropy.greKey(), entropy.sourcePrefixV4(), entropy.sourcePrefixV4Length(),
            entropy.sourcePrefixV6(), entropy.sourcePrefixV6Length(), f.port(txPort).vlan(), f.port(txPort).vlanPcp());
    }

    private static IdleStrategy idleStrategy(final IdleStrategyKind kind)
    {
        return switch (kind)
        {
            case BUSY_SPIN -> new BusySpinIdleStrategy();
            case BACKOFF -> new BackoffIdleStrategy(100, 10, 1_000, 1_000_000);
            case YIELD -> new YieldingIdleStrategy();
        };
    }

    // Every agent's errors: each distinct one logged once with its trace, repeats as "seen N times" lines.
    private void onAgentError(final Throwable error)
    {
        if (error instanceof CoreHeldException)
        {
            return; // startWorkers reports it as a config error, naming the worker and the holder
        }
        agentErrors.onError(error);
    }

    // The start-up summary and notes: one record a line, their text as before after the log prefix.
    private static void info(final String format, final Object... args)
    {
        if (LOGGER.isLoggable(System.Logger.Level.INFO))
        {
            final String line = String.format(format, args);
            LOGGER.log(System.Logger.Level.INFO, line.endsWith(System.lineSeparator()) ?
                line.substring(0, line.length() - System.lineSeparator().length()) : line);
        }
    }

    private void printSummary()
    {
        final ForwarderConfig f = config.forwarder();
        final MachineCpus cpus = MachineCpus.probe();
        LOGGER.log(System.Logger.Level.INFO, "sluice forwarder " + config.node().name() + " running (" +
            dpdk.version() + ", pid " +
            ProcessHandle.current().pid() + ")");
        for (final PortConfig port : f.ports())
        {
            final int id = portIds.get(port.name());
            final int[] speed = new int[1];
            final int[] up = new int[1];
            final String link = shim.sluice_port_link(id, speed, up) == 0 ?
                (up[0] != 0 ? "link up" : "link down") + (speed[0] > 0 ? " " + speed[0] + " Mbps" : "")
                : "link unknown";
            final String role = port.hasKernelPort() ? ", frames for no VIP to kernel port " + port.kernelPort() :
                f.servedBy(port.name()) != null ? ", kernel port of " + f.servedBy(port.name()) : "";
            info("  port %s: id %d, %d rx / %d tx queues, mtu %d, mbuf data room %d (one mbuf a frame), %s%s%n",
                port.name(), id, f.rxQueueCount(port.name()), f.txQueueCount(port.name()), port.mtu(),
                port.frameRoom(), link, role);
        }
        for (int i = 0; i < f.workers().size(); i++)
        {
            final WorkerConfig w = f.workers().get(i);
            final StringBuilder rx = new StringBuilder();
            for (final WorkerConfig.RxQueue queue : w.rx())
            {
                rx.append(rx.length() == 0 ? "" : ", ").append(queue.port()).append('/').append(queue.queue());
            }
            info("  rx-worker-%d: core %d (reserved: %s), rx %s, tx %s/%d, idle %s%n", i, w.core(),
                AffinityWorkerCores.lockFile(w.core()), rx, w.txPort(), w.txQueue(), f.idleStrategy().yamlName());
            for (final String port : w.rx().stream().map(WorkerConfig.RxQueue::port).distinct().toList())
            {
                final int queue = f.returnQueue(i, port);
                if (!port.equals(w.txPort()) && queue >= 0)
                {
                    info("  rx-worker-%d: ICMP replies%s leave by %s on tx queue %d%n", i,
                        f.kernelPortOf(port) == null ? "" : " and kernel frames", port, queue);
                }
            }
            if (!cpus.affinity().contains(w.core()))
            {
                info("  rx-worker-%d: core %d (outside the affinity %s the process started with): pinned there " +
                    "all the same (machine cores %s, cpuset %s)%n", i, w.core(), cpus.affinity(), cpus.online(),
                    cpus.pinnable());
            }
        }
        portNotes.forEach(note -> LOGGER.log(System.Logger.Level.INFO, "  note: " + note));
        for (final PortConfig port : f.ports())
        {
            if (f.txQueueCount(port.name()) > 0 && f.servedBy(port.name()) == null)
            {
                final MacAddress nextHop = f.nextHopMacOf(port.name());
                info("  port %s sends from %s to %s, pool on %s%n", port.name(), formatMac(ownMacOf(port.name())),
                    nextHop == null ? "-" : nextHop.text(), socketName(portSockets.get(port.name())));
            }
        }
        printNumaNotes(f);
        info("  tunnel source %s%s%n",
            f.tunnelSourceV4() == null ? "" : f.tunnelSourceV4().getHostAddress(),
            f.tunnelSourceV6() == null ? "" : " " + f.tunnelSourceV6().getHostAddress());
        logTunnelOptions(f);
        config.vips().forEach(vip -> info("  VIP %s %s: %d backends%n", vip.name(), vip.vip(),
            vip.backends().size()));
        LOGGER.log(System.Logger.Level.INFO, "  counters " + countersFile.path() + ", control " +
            config.nodeDirectory().resolve(ControlChannel.FILE_NAME) + ", capture " + captureFile.path());
        LOGGER.log(System.Logger.Level.INFO, "  buffer bounds checks " + (DirectBuffer.SHOULD_BOUNDS_CHECK ?
            "on" : "off (-D" + DirectBuffer.DISABLE_BOUNDS_CHECKS_PROP_NAME + "=true)"));
        LOGGER.log(System.Logger.Level.INFO, "  Java " + Runtime.version() + ", " +
            System.getProperty("java.vm.name") + ", " +
            System.getProperty("java.home"));
        LOGGER.log(System.Logger.Level.INFO, "  JIT inlining -XX:InlineSmallCode=" + vmOption("InlineSmallCode") +
            " (scripts/sluice sets 6000 so the burst loop inlines its per-frame work)");
    }

    private static String socketName(final Integer socket)
    {
        return socket == null || socket == Dpdk.SOCKET_ANY ? "any socket" : "socket " + socket;
    }

    // check-config warns from sysfs before EAL; here DPDK's own view of each port's socket says the same at start,
    // and the CPU layout names workers on hyperthread siblings.
    private void printNumaNotes(final ForwarderConfig f)
    {
        final WorkerCpuLayout cpus = WorkerCpuLayout.probe();
        for (final String warning : cpus.siblingWorkers(f))
        {
            LOGGER.log(System.Logger.Level.WARNING, "  warning: " + warning);
        }
        for (final String warning : NumaLayout.probe().remoteWorkers(f,
            port -> portSockets.getOrDefault(port, Dpdk.SOCKET_ANY), cpus))
        {
            LOGGER.log(System.Logger.Level.WARNING, "  warning: " + warning);
        }
    }

    // A HotSpot -XX option's value as the running JVM has it, or "unknown" on a JVM without HotSpot's MXBean.
    static String vmOption(final String name)
    {
        try
        {
            return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption(name).getValue();
        }
        catch (final RuntimeException ex)
        {
            return "unknown";
        }
    }

    static String formatMac(final long mac)
    {
        final StringBuilder text = new StringBuilder(17);
        for (int shift = 40; shift >= 0; shift -= 8)
        {
            text.append(String.format("%02x", (mac >>> shift) & 0xFF)).append(shift > 0 ? ":" : "");
        }
        return text.toString();
    }

    /**
     * Stops workers, then the control thread, stops and closes ports, frees pools, releases EAL and removes the
     * shared-memory files. Idempotent.
     */
    @Override
    public void close()
    {
        if (processCounters != null)
        {
            processCounters.state(ForwarderState.STOPPING);
        }
        workerRunners.forEach(CloseHelper::quietClose);
        workerRunners.clear();
        workers.clear();
        CloseHelper.quietClose(controlRunner);
        controlRunner = null;
        agentErrors.close();
        for (final int port : startedPorts)
        {
            shim.sluice_port_stop(port);
            shim.sluice_port_close(port);
        }
        startedPorts.clear();
        pools.forEach(shim::sluice_mempool_free);
        pools.clear();
        CloseHelper.quietClose(controlChannel);
        controlChannel = null;
        CloseHelper.quietClose(captureFile);
        captureFile = null;
        CloseHelper.quietClose(countersFile);
        countersFile = null;
        if (dpdk.isEalInitialised())
        {
            dpdk.cleanupEal();
        }
    }
}
