# hdrlab_embed_text(TARGET SYMBOL FILE): compiles FILE's bytes into TARGET as
# `extern const char SYMBOL[]` (NUL-terminated), so the default scene works without a data folder.
function(hdrlab_embed_text target symbol file)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/embedded/${symbol}.cpp)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${file} -DOUTPUT=${out} -DSYMBOL=${symbol}
            -P ${CMAKE_SOURCE_DIR}/cmake/HdrlabEmbedScript.cmake
    DEPENDS ${file} ${CMAKE_SOURCE_DIR}/cmake/HdrlabEmbedScript.cmake
    COMMENT "Embedding ${file}"
    VERBATIM)
  target_sources(${target} PRIVATE ${out})
endfunction()
