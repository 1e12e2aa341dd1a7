# The tev display server (src/net/, frames/TevFrameSource): the packet parser, the server over loopback
# sockets with the tests' own client (TevTestClient), the frame source on GL, and the 30 s soak.
target_sources(hdrlab_tests_cpu PRIVATE net/TevTestClient.cpp net/TevProtocolTest.cpp net/TevServerTest.cpp)
target_sources(hdrlab_tests_gl PRIVATE net/TevTestClient.cpp net/TevFrameSourceGlTest.cpp net/TevSoakGlTest.cpp)
# The soak (4 clients for 30 s, one sending garbage; memory and GL objects stay flat) runs once, as its
# own test labelled soak; the copy gtest discovers in hdrlab_tests_gl skips without HDRLAB_TEV_SOAK.
add_test(NAME tev_soak COMMAND hdrlab_tests_gl --gtest_filter=TevSoak.*)
set_tests_properties(tev_soak PROPERTIES LABELS "gl;soak" TIMEOUT 300 ENVIRONMENT HDRLAB_TEV_SOAK=1)
