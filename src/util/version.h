/* version.h - the release of Shesh, shown by --version and the protocol. */
#ifndef SHESH_VERSION_H
#define SHESH_VERSION_H

#define SHESH_VERSION "0.1.0"

#endif
