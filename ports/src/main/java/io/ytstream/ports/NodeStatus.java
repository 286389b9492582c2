package io.ytstream.ports;

import io.ytstream.core.model.YPath;

/** What {@link CheckpointStore#status} knows of a node. */
public record NodeStatus(YPath path, boolean directory, long length, long modificationTimeMillis) {}
