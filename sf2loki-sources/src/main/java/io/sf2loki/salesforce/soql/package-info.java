/**
 * The one place SOQL text is built. Every identifier is validated and every literal escaped (record
 * ids read back from checkpoints and values typed on the CLI included), and datetimes are
 * normalised to the UTC millisecond literal form.
 */
package io.sf2loki.salesforce.soql;
