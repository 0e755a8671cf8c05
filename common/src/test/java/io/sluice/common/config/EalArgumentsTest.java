package io.sluice.common.config;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EalArgumentsTest
{
    @Test
    void readsDevicesInEveryFormEalTakes()
    {
        final EalArguments eal = EalArguments.parse(List.of("-l", "0", "--vdev=net_pcap0,rx_pcap=a.pcap",
            "--vdev", "net_null0", "-a", "3B:00.0,rx_low_latency=1", "--allow=0000:3b:00.1", "-b0000:5e:00.0",
            "--file-prefix", "x"));
        assertEquals(List.of("net_pcap0", "net_null0"), eal.vdevs());
        assertEquals(List.of("0000:3b:00.0", "0000:3b:00.1"), eal.allowed());
        assertEquals(List.of("0000:5e:00.0"), eal.blocked());
        assertFalse(eal.noPci() || eal.noHuge());
        assertEquals(-1, eal.memoryMb());
        assertNull(eal.whyNotProbed("0000:3b:00.1"));
        assertTrue(eal.whyNotProbed("0000:5e:00.0").contains("blocks it"));
        assertTrue(eal.whyNotProbed("0000:af:00.0").contains("allows only"));
    }

    @Test
    void readsMemory()
    {
        assertEquals(256, EalArguments.parse(List.of("--no-huge", "-m", "256")).memoryMb());
        assertEquals(512, EalArguments.parse(List.of("-m512")).memoryMb());
        assertEquals(3072, EalArguments.parse(List.of("--socket-mem=1024,2048")).memoryMb());
        assertEquals(2048, EalArguments.parse(List.of("--socket-mem", "2048")).memoryMb());
        assertTrue(EalArguments.parse(List.of("--no-huge", "--no-pci")).noHuge());
        assertTrue(EalArguments.parse(List.of("--no-huge", "--no-pci")).noPci());
    }

    @Test
    void tellsPortNamesApart()
    {
        assertTrue(EalArguments.isPciAddress("0000:3b:00.0"));
        assertFalse(EalArguments.isPciAddress("3b:00.0"));
        assertTrue(EalArguments.isShortPciAddress("3b:00.0"));
        assertTrue(EalArguments.isVirtualDeviceName("net_tap0") && EalArguments.isVirtualDeviceName("eth_pcap0"));
        assertFalse(EalArguments.isVirtualDeviceName("0000:3b:00.0"));
    }
}
