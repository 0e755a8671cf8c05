package io.sluice.testkit.tags;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a test class or method that creates network namespaces, veth pairs or routes in them, which takes root.
 * Tagged {@value TestTags#NETNS} and {@value TestTags#ROOT}: {@code mvn -Punit test} leaves it out.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(TestTags.NETNS)
@Tag(TestTags.ROOT)
public @interface NeedsNetns
{
}
