/*
 * version: the one version number every rowpipe program reports.
 */
#ifndef ROWPIPE_VERSION_H
#define ROWPIPE_VERSION_H

#define ROWPIPE_VERSION	"0.1.0"

#endif
