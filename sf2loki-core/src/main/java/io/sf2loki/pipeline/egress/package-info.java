/**
 * Loki egress controls ({@code sink.loki.egress}): the daily byte budget both lanes spend, kept in
 * the checkpoint document, and each lane's token-bucket rate caps. The pipeline's delivery stage
 * admits every batch here before its first push.
 */
package io.sf2loki.pipeline.egress;
