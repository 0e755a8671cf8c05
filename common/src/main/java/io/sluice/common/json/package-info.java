/**
 * Sluice's one configuration of Jackson: {@link io.sluice.common.json.Json} reads strict RFC 8259 (ExaBGP's API
 * messages, the tools' output in tests) and {@link io.sluice.common.json.JsonWriter} writes every JSON document the
 * tools and the controller print. Depends on Jackson only; never used on the packet path.
 */
package io.sluice.common.json;
