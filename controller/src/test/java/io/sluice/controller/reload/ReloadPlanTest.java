package io.sluice.controller.reload;

import io.sluice.common.Vip;
import io.sluice.common.config.ConfigException;
import io.sluice.common.config.IpLiterals;
import io.sluice.common.config.NodeConfig;
import io.sluice.common.control.ControlCommand;
import io.sluice.controller.health.HealthMonitor;
import io.sluice.controller.operator.BackendWeights;
import io.sluice.testkit.NodeYaml;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ReloadPlanTest
{
    private static NodeConfig config(final String vips, final String controller) throws ConfigException
    {
        return NodeConfig.parse("node.yaml", """
            node: {name: lb1}
            %s
            vips:
            %s
            controller:
            %s
            """.formatted(NodeYaml.nullForwarder(null).stripTrailing(), vips.stripTrailing(),
            controller.stripTrailing()), 2);
    }

    private static final String WEB = """
          - name: web
            address: 10.100.0.1
            port: 80
            protocol: tcp
            backends: [{name: be1, address: 10.1.0.1}, {name: be2, address: 10.1.0.2, weight: 2}]
        """;
    private static final String CHECKS = "  health_checks: {type: tcp, start_up: true}\n";

    @Test
    void plansRemovalsFirstThenAdditionsAndWeightChanges() throws ConfigException
    {
        final NodeConfig current = config(WEB, CHECKS);
        final NodeConfig next = config("""
              - name: web
                address: 10.100.0.1
                port: 80
                protocol: tcp
                backends: [{name: be2, address: 10.1.0.2, weight: 5}, {name: be3, address: 10.1.0.3}]
              - name: dns
                address: 10.100.0.2
                port: 53
                protocol: udp
                backends: [{name: ns1, address: 10.1.1.1}]
            """, CHECKS);
        final HealthMonitor monitor = new HealthMonitor(next);
        monitor.carryOver(new HealthMonitor(current));
        final ReloadPlan plan = ReloadPlan.plan(current, new BackendWeights(current.vips()), next, monitor,
            new BackendWeights(next.vips()));

        final Vip web = new Vip(IpLiterals.parse("10.100.0.1"), 80, Vip.TCP);
        final Vip dns = new Vip(IpLiterals.parse("10.100.0.2"), 53, Vip.UDP);
        assertEquals(List.of(
            new ControlCommand.RemoveBackend(web, IpLiterals.parse("10.1.0.1")),
            new ControlCommand.SetBackendWeight(web, IpLiterals.parse("10.1.0.2"), 5),
            new ControlCommand.AddBackend(web, IpLiterals.parse("10.1.0.3"), 1, true, "be3"),
            new ControlCommand.AddVip(dns, "dns"),
            new ControlCommand.AddBackend(dns, IpLiterals.parse("10.1.1.1"), 1, true, "ns1")), plan.commands());
        assertEquals(List.of("VIP web: backend be1 removed", "VIP web: backend be2 weight 2 -> 5",
            "VIP web: backend be3 added (up)", "VIP dns 10.100.0.2:53/udp added"), plan.changes());
    }

    @Test
    void refusesWhatNeedsARestart() throws ConfigException
    {
        final NodeConfig current = config(WEB, CHECKS);
        assertNull(ReloadPlan.refusal(current, config(WEB, "  health_checks: {type: tcp, rise: 5}\n")));
        assertEquals("controller bgp, metrics, forwarder_liveness_timeout, drain_time or announce_regardless " +
            "changed: restart the controller to apply it",
            ReloadPlan.refusal(current, config(WEB, CHECKS + "  drain_time: 1s\n")));
    }
}
