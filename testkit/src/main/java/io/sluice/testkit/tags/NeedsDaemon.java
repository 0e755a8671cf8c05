package io.sluice.testkit.tags;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a test class or method that runs an external daemon or its binary (ExaBGP, BIRD, FRR, Prometheus, pktgen),
 * so it needs that package installed. Tagged {@value TestTags#DAEMON}: {@code mvn -Punit test} leaves it out.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(TestTags.DAEMON)
public @interface NeedsDaemon
{
}
