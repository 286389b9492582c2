package io.ytstream.inmemory;

import io.ytstream.core.model.YPath;

/** A registration of a consumer for a queue (both on this cluster). */
public record ConsumerRegistration(YPath queue, YPath consumer, boolean vital) {}
