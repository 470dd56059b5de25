#version 120

varying vec2 uv;
uniform samplerCube cubeMap;
uniform int mapping;

#define PI 3.1415926535

vec3 cylindricalCoords(vec2 coords)
{
    return normalize(vec3(cos(-1 * coords.x * 2 * PI),sin(-1 * coords.x * 2 * PI),coords.y * 2.0 - 1.0));
}

void main(void)
{
    vec3 c;

    if (mapping == 0)
        c = vec3(uv, 0.0);
    else if (mapping == 1)
        c = cylindricalCoords(uv);
    else
        c = vec3(0.0);

    gl_FragData[0] = textureCube(cubeMap,c);
}
