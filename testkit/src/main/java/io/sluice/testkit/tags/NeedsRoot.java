package io.sluice.testkit.tags;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a test class or method that needs root without creating namespaces, for example one that writes under
 * {@code /var/run} or runs a daemon as root. Tagged {@value TestTags#ROOT}: {@code mvn -Punit test} leaves it out.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(TestTags.ROOT)
public @interface NeedsRoot
{
}
