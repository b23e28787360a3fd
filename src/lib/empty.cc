// libproton.so is assembled from static parts (see CMakeLists.txt); this file is its anchor.
