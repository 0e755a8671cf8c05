package io.sluice.forwarder.counters;

import io.sluice.common.counters.CounterType;
import io.sluice.common.counters.CountersFile;
import io.sluice.common.counters.DutyCycleBuckets;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;

/**
 * A forwarder's counters for tests: every type allocated through {@link CounterAllocator} for two workers, three
 * drop reasons, two pass reasons, two VIPs of two backends each, two ports and the process, written through a
 * {@link CounterWriter}.
 */
public final class CountersFixture implements AutoCloseable
{
    public static final int WORKERS = 2;
    public static final int[] DROP_ORDINALS = {0, 2, 20};
    static final String[] DROP_NAMES = {"FRAME_TRUNCATED", "IPV4_TRUNCATED", "NO_BACKEND"};
    static final int[] PASS_ORDINALS = {0, 1};
    static final String[] PASS_NAMES = {"NOT_IP", "NO_VIP"};
    public static final String[] VIPS = {"web (10.100.0.1:80/tcp)", "odd \"vip\"\\ ([2001:db8::53]:53/udp)"};
    public static final String[][] BACKENDS = {{"b1 (10.0.0.1)", "b2 (10.0.0.2)"}, {"d1 (2001:db8::1)",
        "d2 (2001:db8::2)"}};
    public static final int[] PORTS = {0, 1};

    public final CountersFile file;
    final CounterAllocator allocator;
    public final CounterWriter writer;
    final int[][] workerIds = new int[WORKERS][];
    public final int[][] dropIds = new int[WORKERS][DROP_ORDINALS.length];
    public final int[][] passIds = new int[WORKERS][PASS_ORDINALS.length];
    public final int[][] dutyCycleIds = new int[WORKERS][DutyCycleBuckets.COUNT];
    public final int[][][] vipIds = new int[WORKERS][VIPS.length][2];
    public final int[][][][] backendIds = new int[WORKERS][VIPS.length][2][2];
    public final int[][] portIds = new int[PORTS.length][];
    final int[] fingerprintIds = new int[VIPS.length];
    final Map<CounterType, Integer> processIds = new EnumMap<>(CounterType.class);
    public int allocated;

    public CountersFixture(final Path path)
    {
        file = CountersFile.create(path, 512);
        allocator = new CounterAllocator(file.manager());
        writer = allocator.writer();
        for (int worker = 0; worker < WORKERS; worker++)
        {
            workerIds[worker] = new int[CounterType.values().length];
            for (final CounterType type : CounterType.values())
            {
                if (type.scope() == CounterType.Scope.WORKER)
                {
                    workerIds[worker][type.ordinal()] = count(allocator.workerCounter(type, worker));
                }
            }
            for (int i = 0; i < DROP_ORDINALS.length; i++)
            {
                dropIds[worker][i] = count(allocator.reasonCounter(CounterType.DROP_REASON, worker, DROP_ORDINALS[i],
                    DROP_NAMES[i]));
            }
            for (int i = 0; i < PASS_ORDINALS.length; i++)
            {
                passIds[worker][i] = count(allocator.reasonCounter(CounterType.PASS_REASON, worker, PASS_ORDINALS[i],
                    PASS_NAMES[i]));
            }
            for (int bucket = 0; bucket < DutyCycleBuckets.COUNT; bucket++)
            {
                dutyCycleIds[worker][bucket] = count(allocator.reasonCounter(CounterType.DUTY_CYCLE_BUCKET, worker,
                    bucket, DutyCycleBuckets.name(bucket)));
            }
            for (int vip = 0; vip < VIPS.length; vip++)
            {
                vipIds[worker][vip][0] = count(allocator.vipCounter(CounterType.VIP_PACKETS, worker, vip, VIPS[vip]));
                vipIds[worker][vip][1] = count(allocator.vipCounter(CounterType.VIP_BYTES, worker, vip, VIPS[vip]));
                for (int slot = 0; slot < 2; slot++)
                {
                    final int backendSlot = vip * 2 + slot;
                    backendIds[worker][vip][slot][0] = count(allocator.backendCounter(CounterType.BACKEND_PACKETS,
                        worker, vip, backendSlot, VIPS[vip], BACKENDS[vip][slot]));
                    backendIds[worker][vip][slot][1] = count(allocator.backendCounter(CounterType.BACKEND_BYTES,
                        worker, vip, backendSlot, VIPS[vip], BACKENDS[vip][slot]));
                }
            }
        }
        for (int vip = 0; vip < VIPS.length; vip++)
        {
            fingerprintIds[vip] = count(allocator.vipCounter(CounterType.VIP_MAGLEV_FINGERPRINT, 0, vip, VIPS[vip]));
        }
        for (int port = 0; port < PORTS.length; port++)
        {
            portIds[port] = new int[CounterType.values().length];
            for (final CounterType type : CounterType.values())
            {
                if (type.scope() == CounterType.Scope.PORT)
                {
                    portIds[port][type.ordinal()] = count(allocator.portCounter(type, PORTS[port]));
                }
            }
        }
        for (final CounterType type : CounterType.values())
        {
            if (type.scope() == CounterType.Scope.PROCESS)
            {
                processIds.put(type, count(allocator.processCounter(type)));
            }
        }
    }

    private int count(final int id)
    {
        allocated++;
        return id;
    }

    public void worker(final CounterType type, final int worker, final long value)
    {
        writer.set(workerIds[worker][type.ordinal()], value);
    }

    public void addWorker(final CounterType type, final int worker, final long delta)
    {
        writer.add(workerIds[worker][type.ordinal()], delta);
    }

    public void port(final CounterType type, final int port, final long value)
    {
        writer.set(portIds[port][type.ordinal()], value);
    }

    public void process(final CounterType type, final long value)
    {
        writer.set(processIds.get(type), value);
    }

    @Override
    public void close()
    {
        file.close();
    }
}
