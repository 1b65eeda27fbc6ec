// ImGui's OpenGL3 backend backs up the GL state before every frame's draw and restores it after
// (14 glGetIntegerv and 5 glIsEnabled calls a frame). The page owns its WebGL context and nothing
// else draws between ImGui's frames, so the backup guards nothing; and in the browser each query is
// a synchronous WebGL getParameter: a main-thread CPU profile of the arena (tests/bench/arena_soak.mjs
// with SOAK_PROFILE) put 2.1 % of all main-thread time, about 1.6 ms a frame, in getParameter.
// web.cmake compiles the backend with glGetIntegerv/glIsEnabled mapped to the two functions below:
// the state the backend backs up is answered with what the frame leaves behind anyway (the backend
// sets all of it again at the start of the next draw), every other query goes to WebGL.
#include <GLES3/gl3.h>

namespace {
GLint gViewport[4] = {0, 0, 0, 0};
} // namespace

// The viewport main_web.cpp sets before each draw (restored by the backend after it).
extern "C" void chaiba_gl_note_viewport(GLint x, GLint y, GLsizei width, GLsizei height) {
    gViewport[0] = x;
    gViewport[1] = y;
    gViewport[2] = width;
    gViewport[3] = height;
    glViewport(x, y, width, height);
}

extern "C" void chaiba_imgui_glGetIntegerv(GLenum pname, GLint* data) {
    switch (pname) {
    case GL_ACTIVE_TEXTURE: data[0] = GL_TEXTURE0; return;
    case GL_CURRENT_PROGRAM:
    case GL_TEXTURE_BINDING_2D:
    case GL_SAMPLER_BINDING:
    case GL_ARRAY_BUFFER_BINDING:
    case GL_VERTEX_ARRAY_BINDING: data[0] = 0; return; // nothing of ours stays bound between frames
    case GL_VIEWPORT:
    case GL_SCISSOR_BOX: // the scissor test is off between frames: the box only needs to be valid
        for (int i = 0; i < 4; ++i) data[i] = gViewport[i];
        return;
    // The blending the backend itself sets up (premultiplied-alpha text and shapes).
    case GL_BLEND_SRC_RGB: data[0] = GL_SRC_ALPHA; return;
    case GL_BLEND_DST_RGB: data[0] = GL_ONE_MINUS_SRC_ALPHA; return;
    case GL_BLEND_SRC_ALPHA: data[0] = GL_ONE; return;
    case GL_BLEND_DST_ALPHA: data[0] = GL_ONE_MINUS_SRC_ALPHA; return;
    case GL_BLEND_EQUATION_RGB:
    case GL_BLEND_EQUATION_ALPHA: data[0] = GL_FUNC_ADD; return;
    default: glGetIntegerv(pname, data); return; // version, extensions: asked once at start
    }
}

extern "C" GLboolean chaiba_imgui_glIsEnabled(GLenum cap) {
    switch (cap) {
    case GL_BLEND:
    case GL_CULL_FACE:
    case GL_DEPTH_TEST:
    case GL_STENCIL_TEST:
    case GL_SCISSOR_TEST: return GL_FALSE; // all off between frames: glClear clears the whole canvas
    default: return glIsEnabled(cap);
    }
}
