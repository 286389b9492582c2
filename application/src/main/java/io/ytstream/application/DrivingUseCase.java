package io.ytstream.application;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a use case an engine drives: each of its public methods is one call the engine makes (a
 * Spark callback, a task's read or write), running the protocol's steps in their order. The Spark
 * adapter calls these and nothing finer; the simulation makes the same calls in Spark's order. An
 * architecture test holds both to that.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface DrivingUseCase {}
