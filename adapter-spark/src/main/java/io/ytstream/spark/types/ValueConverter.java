package io.ytstream.spark.types;

import java.io.Serializable;

/**
 * Converts one value between a port {@link io.ytstream.ports.Row}'s form and Spark's internal
 * (Catalyst) form. Built once per column on the driver from the two types, shipped to executors
 * with the read or write plan, applied to every value; every converter maps null to null.
 */
@FunctionalInterface
public interface ValueConverter extends Serializable {

  Object convert(Object value);
}
