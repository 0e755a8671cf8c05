package io.sluice.testkit.tags;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a test class or method that starts DPDK's EAL through the native shim, on virtual devices: DPDK installed
 * and {@code make -C native} built. Tagged {@value TestTags#DPDK}: {@code mvn -Punit test} leaves it out.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(TestTags.DPDK)
public @interface NeedsDpdk
{
}
