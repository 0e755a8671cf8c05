/**
 * JUnit tags for tests that need more than a JVM (root, DPDK, network namespaces, external daemons): one
 * meta-annotation per kind ({@link io.sluice.testkit.tags.NeedsNetns} and the others), and the launcher filter and
 * summary behind {@code mvn -Punit test}, which leaves those tests out and says how many. Depends on the JUnit
 * Platform only.
 */
package io.sluice.testkit.tags;
